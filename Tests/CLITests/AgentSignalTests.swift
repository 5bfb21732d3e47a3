import Foundation
import PrintModel
import Simulator
import Store
import Testing

extension AgentEndToEnd {
    /// The agent under systemd's signals: SIGHUP reloads (or keeps the
    /// configuration in force when the new one is wrong), SIGTERM in the middle
    /// of a burst loses nothing and prints nothing twice.
    @Suite(.timeLimit(.minutes(4))) struct AgentSignalTests {
        @Test func sighupWithABrokenConfigurationKeepsTheOldOneAndAGoodOneTakesOver() async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("Reload Receipt \(try Loopback.freePort())")))
            defer { printer.stop() }
            let agentFolder = try AgentHarness(lab: lab)
            try await agentFolder.assign(printer, to: "receipt")
            let first = try agentFolder.makeFolder("first")
            let second = try agentFolder.makeFolder("second")
            let folderFirst = """
                [[folder]]
                path = "first"
                role = "receipt"
                template = "receipt"
                """
            try agentFolder.writeConfiguration(folderFirst)
            let agent = try await agentFolder.start()
            defer { agent.stop() }

            try agentFolder.writeConfiguration(folderFirst + "\n[[folder]]\npath = 3\n")
            agent.signal(SIGHUP)
            try await pollUntil("the reload to be refused", within: .seconds(10)) {
                agentFolder.logText.contains("SIGHUP: the configuration was not reloaded, the one in force stays")
            }
            #expect(agentFolder.logText.contains("folder[2].path: expected text in quotes, found a whole number (3)."))
            try agentFolder.drop(try sampleData("receipt"), as: "still-watched.json", into: first)
            _ = try await printer.receivedJobs(atLeast: 1)

            try agentFolder.writeConfiguration(folderFirst + "\n[[folder]]\npath = \"second\"\nrole = \"receipt\"\ntemplate = \"receipt\"\n")
            agent.signal(SIGHUP)
            try await pollUntil("the reload to take", within: .seconds(10)) {
                agentFolder.logText.contains("SIGHUP: configuration reloaded: 2 folders")
            }
            try agentFolder.drop(try sampleData("receipt"), as: "new-folder.json", into: second)
            let received = try await printer.receivedJobs(atLeast: 2)
            #expect(received.count == 2)
            #expect(agent.isRunning)
        }

        @Test func sigtermDuringABurstLosesNothingAndPrintsNothingTwice() async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("Burst Receipt \(try Loopback.freePort())"),
                                                                delay: .milliseconds(50)))
            defer { printer.stop() }
            let agentFolder = try AgentHarness(lab: lab)
            try await agentFolder.assign(printer, to: "receipt")
            let pos = try agentFolder.watchReceiptFolder()
            var agent = try await agentFolder.start()
            let data = try sampleData("receipt")
            let count = 40
            for number in 1...count { try agentFolder.drop(data, as: "burst-\(number).json", into: pos) }
            try await pollUntil("a few of the burst to print", within: .seconds(60)) { try printer.receivedJobs().count >= 5 }
            await agentFolder.stop(agent)
            let beforeRestart = try printer.receivedJobs().count
            #expect(beforeRestart < count, "the burst should still be under way when SIGTERM came")

            agent = try await agentFolder.start()
            defer { agent.stop() }
            let store = try KioskStore(path: agentFolder.database)
            try await pollUntil("every file queued and every job ended", within: .seconds(120)) {
                let jobs = try await store.jobs(includeFinished: true)
                return jobs.count == count && jobs.allSatisfy { $0.state.isTerminal }
            }
            let jobs = try await store.jobs(includeFinished: true)
            #expect(jobs.allSatisfy { $0.state == .completed }, "\(jobs.filter { $0.state != .completed }.map(\.lastError))")
            #expect(Set(jobs.map(\.name)) == Set((1...count).map { "burst-\($0)" }))
            let received = try await printer.receivedJobs(atLeast: count)
            let markers = received.compactMap { $0.jobName.firstMatch(of: /\[(kp-[0-9a-z-]+)\]/).map { String($0.1) } }
            #expect(received.count == count, "\(received.count) jobs at the printer")
            #expect(Set(markers) == Set(jobs.map(\.marker)) && markers.count == Set(markers).count)
            #expect(agentFolder.files(in: pos + "/done").count == count)
            #expect(agentFolder.files(in: pos + "/processing").isEmpty && agentFolder.files(in: pos + "/failed").isEmpty)
        }
    }
}
