import Foundation
import PrintModel
import Simulator
import Store
import Testing

extension AgentEndToEnd {
    /// Issue 27, cases 11 and 12, through the real agent: what it finds in a
    /// watched folder when it starts is claimed only when complete, and a
    /// file it was moving into done/ when it died is not queued again.
    @Suite(.timeLimit(.minutes(3))) struct AgentFolderClaimTests {
        /// A recording receipt printer for the role receipt, and a site
        /// whose agent watches pos/ for the receipt template's data.
        func receiptSite(_ label: String) async throws -> (printer: RunningPrinter, site: AgentHarness, pos: String) {
            let lab = try await PrinterLab.shared()
            let printer = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("\(label) \(try Loopback.freePort())")))
            let site = try AgentHarness(lab: lab)
            try await site.assign(printer, to: "receipt")
            return (printer, site, try site.watchReceiptFolder())
        }

        @Test func aFileStillBeingWrittenWhenTheAgentStartsPrintsOnceItsWriterClosesIt() async throws {
            let (printer, site, pos) = try await receiptSite("Open Writer")
            defer { printer.stop() }
            let sample = Array(try sampleData("receipt").utf8)
            let first = try await site.start()
            await site.stop(first)

            // While the agent is stopped, an application starts writing a
            // receipt in place and is still at it when the agent starts again.
            // Close-on-exec: the agent started from this process must not hold it too.
            let writer = open(pos + "/a-order.json", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            try #require(writer >= 0)
            var writerOpen = true
            defer { if writerOpen { close(writer) } }
            let half = sample.count / 2
            #expect(sample[..<half].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == half)
            try site.drop(String(decoding: sample, as: UTF8.self), as: "b-order.json", into: pos)
            let second = try await site.start()
            defer { second.stop() }
            // The start-up scan goes in name order: once b-order.json is in
            // done/, the scan has passed a-order.json.
            try await pollUntil("the complete file to reach done/", within: .seconds(20)) {
                site.files(in: pos + "/done") == ["b-order.json"]
            }
            try #require(site.files(in: pos).contains("a-order.json"),
                         "the file being written was taken: failed/ holds \(site.files(in: pos + "/failed"))")
            #expect(site.files(in: pos + "/failed").isEmpty)

            #expect(sample[half...].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == sample.count - half)
            close(writer)
            writerOpen = false
            try await pollUntil("the finished file to reach done/", within: .seconds(20)) {
                site.files(in: pos + "/done") == ["a-order.json", "b-order.json"]
            }
            let store = try KioskStore(path: site.database)
            try await pollUntil("both jobs to print", within: .seconds(30)) {
                try await store.jobs(includeFinished: true).allSatisfy { $0.state.isTerminal }
            }
            let jobs = try await store.jobs(includeFinished: true)
            #expect(jobs.map(\.name).sorted() == ["a-order", "b-order"])
            #expect(jobs.allSatisfy { $0.state == .completed }, "\(jobs.map(\.lastError))")
            #expect(site.files(in: pos + "/failed").isEmpty)
            #expect(site.files(in: pos).filter { !["done", "failed", "processing"].contains($0) }.isEmpty)
            await site.stop(second)
        }

        @Test func anAgentKilledBetweenLinkingAFileIntoDoneAndUnlinkingItDoesNotQueueItAgain() async throws {
            let (printer, site, pos) = try await receiptSite("Done Link")
            defer { printer.stop() }
            let first = try await site.start(extraEnvironment: ["KIOSKPRINT_TEST_CRASH_AT": "finish-linked"])
            defer { first.stop() }
            try site.drop(try sampleData("receipt"), as: "order.json", into: pos)
            let status = try #require(await first.exited(within: .seconds(30)), "the agent did not reach the crash point")
            #expect(exitCode(of: status) == 128 + SIGKILL)
            // The window the kill fell in: one file under two names, its job queued.
            #expect(site.files(in: pos + "/processing") == ["order.json"])
            #expect(site.files(in: pos + "/done") == ["order.json"])
            let store = try KioskStore(path: site.database)
            #expect(try await store.jobs(includeFinished: true).count == 1)

            let second = try await site.start()
            defer { second.stop() }
            try await pollUntil("processing/ to be empty", within: .seconds(20)) {
                site.files(in: pos + "/processing").isEmpty
            }
            try await pollUntil("every job to print", within: .seconds(30)) {
                try await store.jobs(includeFinished: true).allSatisfy { $0.state.isTerminal }
            }
            let jobs = try await store.jobs(includeFinished: true)
            #expect(jobs.count == 1, "queued again: \(jobs.map(\.name))")
            #expect(jobs.allSatisfy { $0.state == .completed }, "\(jobs.map(\.lastError))")
            #expect(site.files(in: pos + "/done") == ["order.json"])
            #expect(try printer.receivedJobs().count == 1)
            #expect(site.logText.contains("order.json was already in done/"), "\(site.logText)")
            await site.stop(second)
        }
    }
}
