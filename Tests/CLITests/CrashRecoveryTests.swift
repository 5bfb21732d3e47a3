import Foundation
import PrintModel
import Simulator
import Store
import Templates
import Testing

/// The agent killed with SIGKILL in the middle of a queue, as a power cut or
/// the OOM killer would: after a restart every accepted job prints, none twice.
@Suite(.timeLimit(.minutes(3))) struct CrashRecoveryTests {
    @Test func killNineInTheMiddleOfAHundredJobsLosesNoneAndDoublesNone() async throws {
        let lab = try await PrinterLab.shared()
        let printer = try await lab.startPrinter(.recording(
            SimulatedPrinter.receipt80mm.named("Crash Receipt \(try Loopback.freePort())")))
        defer { printer.stop() }
        let (kioskprint, database) = CommandRunner.forLab(lab)
        #expect(try await kioskprint.run(["printers", "add", printer.uri, "--role", "receipt"]).status == 0)

        let store = try KioskStore(path: database)
        let sample = try #require(BuiltInTemplates.all.first { $0.name == "receipt" }?.sampleData)
        var queued: [PrintJob] = []
        for number in 1...100 {
            queued.append(try await store.enqueue(name: "Receipt \(number)", role: try Role("receipt"),
                                                  content: .template(name: "receipt", dataJSON: sample)))
        }

        let log = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-run-\(UUID().uuidString).log")
        let environment = kioskprint.environment.merging(ProcessInfo.processInfo.environment) { ours, _ in ours }
        let first = try Spawned.start(CommandRunner.executable.path, ["run"], environment: environment, output: log.path)
        // Kill it once it is well into the queue: some jobs printed, one maybe on its way.
        try await pollUntil("the first agent to print 30 jobs", within: .seconds(90)) {
            guard first.isRunning else { throw AgentExited(log: log) }
            return try printer.receivedJobs().count >= 30
        }
        first.signal(SIGKILL)
        _ = await first.exited(within: .seconds(10))
        let printedBeforeKill = try printer.receivedJobs().count
        #expect(printedBeforeKill < 100)

        let second = try Spawned.start(CommandRunner.executable.path, ["run"], environment: environment, output: log.path)
        defer { second.stop() }
        try await pollUntil("the restarted agent to finish the queue", within: .seconds(120)) {
            guard second.isRunning else { throw AgentExited(log: log) }
            return try await store.jobs(includeFinished: true).allSatisfy { $0.state.isTerminal }
        }

        let jobs = try await store.jobs(includeFinished: true)
        #expect(jobs.count == 100)
        #expect(jobs.allSatisfy { $0.state == .completed }, "\(jobs.filter { $0.state != .completed }.map(\.lastError))")
        // At the printer: 100 jobs, each job's marker exactly once.
        let received = try await printer.receivedJobs(atLeast: 100)
        let markers = received.compactMap { $0.jobName.firstMatch(of: /\[(kp-[0-9a-z-]+)\]/).map { String($0.1) } }
        #expect(received.count == 100, "\(received.count) jobs at the printer")
        #expect(Set(markers) == Set(queued.map(\.marker)))
        #expect(markers.count == Set(markers).count)
    }

    struct AgentExited: Error, CustomStringConvertible {
        let log: URL
        var description: String { "the agent exited early: " + ((try? String(contentsOf: log, encoding: .utf8)) ?? "") }
    }
}
