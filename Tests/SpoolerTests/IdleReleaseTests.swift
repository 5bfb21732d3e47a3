import Foundation
import PrintModel
import Simulator
import Spooler
import Synchronization
import Testing

/// The memory release after work waits until the queue has stayed dry, so a
/// trickle of receipts does not pay for it after each one.
@Suite(.serialized, .timeLimit(.minutes(2))) struct IdleReleaseTests {
    final class Counter: Sendable {
        let calls = Mutex(0)
        var value: Int { calls.withLock { $0 } }
    }

    func trickle(_ jobs: Int, releaseAfterIdle: Duration) async throws -> Counter {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Spool Trickle")
        defer { printer.stop() }
        try await lab.assign(printer, to: "receipt")
        let counter = Counter()
        var configuration = SpoolLab.configuration
        configuration.releaseAfterIdle = releaseAfterIdle
        configuration.whenIdleAfterWork = { counter.calls.withLock { $0 += 1 } }
        let spooler = lab.spooler(configuration)
        let running = Task { try await spooler.run() }
        defer { running.cancel() }
        for number in stride(from: 1, through: jobs, by: 1) {
            let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt \(number)")
            spooler.wake()
            _ = try await lab.job(queued.id) { $0.state == .completed }
        }
        if releaseAfterIdle == .zero {
            try await pollUntil("the release after the queue ran dry", within: .seconds(10)) { counter.value >= 1 }
        }
        return counter
    }

    @Test func aTrickleOfJobsIsNotFollowedByAReleaseEachTime() async throws {
        let counter = try await trickle(3, releaseAfterIdle: .seconds(600))
        #expect(counter.value == 0, "the queue ran dry between the jobs, but never for the 600 s")
    }

    @Test func anAgentThatStartsIdleGivesItsStartUpMemoryBack() async throws {
        let counter = try await trickle(0, releaseAfterIdle: .zero)
        #expect(counter.value >= 1)
    }

    @Test func aQueueThatStaysDryGivesItsMemoryBack() async throws {
        let counter = try await trickle(2, releaseAfterIdle: .zero)
        #expect(counter.value >= 1)
    }

    /// Roles go idle together (at start, after a burst), each asking for the
    /// store's release while the others still read: the release must not hold
    /// Swift's few cooperative threads, or the reads it waits for never end.
    @Test func rolesGoingIdleTogetherReleaseTheStoreAndPrintOn() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Spool Idle Roles")
        defer { printer.stop() }
        let roles = ["receipt", "coupon", "ticket", "queue", "bag-tag", "label", "boarding-pass", "voucher"]
        for role in roles { try await lab.assign(printer, to: role) }
        let counter = Counter()
        let store = lab.store
        var configuration = SpoolLab.configuration
        configuration.releaseAfterIdle = .zero
        configuration.whenIdleAfterWork = {
            await store.releaseMemory()
            counter.calls.withLock { $0 += 1 }
        }
        let spooler = lab.spooler(configuration)
        let running = Task { try await spooler.run() }
        defer { running.cancel() }
        try await pollUntil("every role's release after start", within: .seconds(20)) { counter.value >= roles.count }
        for role in roles {
            let queued = try await lab.enqueue("receipt", role: role, name: "After the release (\(role))")
            spooler.wake()
            #expect(try await lab.job(queued.id) { $0.state.isTerminal }.state == .completed)
        }
    }
}
