import Foundation
import PrintModel
import Memory
import Simulator
import Store
import Testing

extension AgentEndToEnd {
    /// The agent end to end: `kioskprint run` on a configuration file, real
    /// ippeveprinters, real inotify, and GPIO through the libgpiod stand-in.
    @Suite(.timeLimit(.minutes(4))) struct AgentRunTests {
        func receiptPrinter(_ lab: PrinterLab, _ label: String) async throws -> RunningPrinter {
            try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("\(label) \(try Loopback.freePort())")))
        }

        @Test func aDroppedReceiptPrintsWithItsCutLengthAndAMalformedOneIsKeptWithItsReason() async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await receiptPrinter(lab, "Agent Receipt")
            defer { printer.stop() }
            let agentFolder = try AgentHarness(lab: lab)
            try await agentFolder.assign(printer, to: "receipt")
            let pos = try agentFolder.makeFolder("pos")
            try agentFolder.writeConfiguration("""
                box = "till-3"
                [[folder]]
                path = "pos"
                role = "receipt"
                template = "receipt"
                """)
            let agent = try await agentFolder.start()
            defer { agent.stop() }

            try agentFolder.drop(try sampleData("receipt"), as: "order-4711.json", into: pos)
            try agentFolder.drop(#"{"items": [ {"name": "Tea", "#, as: "order-4712.json", into: pos)
            let received = try await printer.receivedJobs(atLeast: 1)
            let store = try KioskStore(path: agentFolder.database)
            try await pollUntil("job 1 to complete", within: .seconds(30)) { try await store.job(JobID(1)).state == .completed }
            let job = try await store.job(JobID(1))
            let cut = try #require(job.cutLengths?.first)
            #expect(job.name == "order-4711")
            #expect(received[0].jobName.contains(job.marker))
            #expect(received[0].attributes["IPP_MEDIA_COL"]?.contains("y-dimension=\(cut)") == true,
                    "\(received[0].attributes["IPP_MEDIA_COL"] ?? "") vs \(cut)")
            #expect(agentFolder.files(in: pos + "/done") == ["order-4711.json"])

            // The malformed file: kept in failed/ with its reason, and the agent goes on.
            try await pollUntil("the malformed file to reach failed/", within: .seconds(10)) {
                agentFolder.files(in: pos + "/failed") == ["order-4712.json", "order-4712.json.error"]
            }
            let reason = try String(contentsOfFile: pos + "/failed/order-4712.json.error", encoding: .utf8)
            #expect(reason.hasPrefix("order-4712.json was not printed: order-4712.json:1:"), "\(reason)")
            #expect(reason.contains("Correct the file and drop it into \(pos) again."))
            #expect(try String(contentsOfFile: pos + "/failed/order-4712.json", encoding: .utf8) == #"{"items": [ {"name": "Tea", "#)
            #expect(agent.isRunning)
            try agentFolder.drop(try sampleData("receipt"), as: "order-4713.json", into: pos)
            _ = try await printer.receivedJobs(atLeast: 2)
            #expect(try await store.jobs(includeFinished: true).count == 2)
            // At the printer is not yet completed: the spooler still asks the printer how the job ended.
            try await pollUntil("job 2 to complete", within: .seconds(30)) { try await store.queueDepth() == 0 }
            #expect(agentFolder.logText.contains("order-4712.json refused, kept as \(pos)/failed/order-4712.json"))
            // The malloc arena cap held: set first thing in main, before any of
            // the threads that drew, stored and printed allocated.
            let heaps = try #require(MallocHeaps.count(process: "\(agent.pid)"))
            #expect(heaps <= 1, "the agent has \(heaps) arena heaps beside the main one, not at most 1")

            let status = try await agentFolder.runner.run(["status"])
            #expect(status.status == 0, "\(status.output)\(status.errors)")
            #expect(status.output.contains("Agent: running (pid \(agent.pid)), database \(agentFolder.database)."), "\(status.output)")
            #expect(status.output.contains("Queue: 0 job(s) not finished."))
            #expect(status.output.contains(printer.name) && status.output.contains("receipt"))
            await agentFolder.stop(agent)
            let stopped = try await agentFolder.runner.run(["status"])
            #expect(stopped.status == 1)
            #expect(stopped.output.contains("Agent: not running for \(agentFolder.database)."))
        }

        /// Runs `body` beside an agent on a receipt printer of its own that
        /// looks for work by itself only every hour: whatever it prints
        /// meanwhile, something else woke it for.
        func besideAnAgentThatLooksHourly(_ label: String,
                                          _ body: (AgentHarness, RunningPrinter) async throws -> Void) async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await receiptPrinter(lab, label)
            defer { printer.stop() }
            let agentFolder = try AgentHarness(lab: lab)
            try await agentFolder.assign(printer, to: "receipt")
            try agentFolder.writeConfiguration("""
                [spooler]
                look-every = "1h"
                """)
            let agent = try await agentFolder.start()
            defer { agent.stop() }
            try await body(agentFolder, printer)
            await agentFolder.stop(agent)
        }

        /// `kioskprint print` beside a running agent: the job prints at once.
        /// The command's store touches the database's wake file after the
        /// commit, and the agent watches it (`DatabaseChanges`), so an idle
        /// agent need not keep asking.
        @Test func aJobAnotherProcessQueuesPrintsWithoutWaitingForTheAgentsOwnLook() async throws {
            try await besideAnAgentThatLooksHourly("Agent Beside") { agentFolder, printer in
                let data = agentFolder.folder + "/order-4711.json"
                try Data(try sampleData("receipt").utf8).write(to: URL(fileURLWithPath: data))
                for number in 1...2 {
                    let queued = try await agentFolder.runner.run(["print", "receipt", "--data", data, "--role", "receipt",
                                                                   "--name", "Beside \(number)"])
                    #expect(queued.status == 0, "\(queued.output)\(queued.errors)")
                    let received = try await printer.receivedJobs(atLeast: number, within: .seconds(30))
                    #expect(received.contains { $0.jobName.contains("Beside \(number)") })
                }
            }
        }

        /// `kioskprint print --wait` beside a running agent: the agent prints
        /// the job, and the command follows it to its end through the
        /// progress file the agent's store touches.
        @Test func printWaitBesideTheAgentFollowsTheJobTheAgentPrints() async throws {
            try await besideAnAgentThatLooksHourly("Agent Waited") { agentFolder, printer in
                let waited = try await agentFolder.runner.run(["print", "receipt", "--role", "receipt", "--name", "Waited on",
                                                               "--wait"])
                #expect(waited.status == 0, "\(waited.output)\(waited.errors)")
                #expect(waited.output.contains("Waiting for the agent to print it..."), "\(waited.output)")
                #expect(waited.output.contains(": completed"), "\(waited.output)")
                #expect(waited.output.contains("printed on \(printer.name)."), "\(waited.output)")
                let received = try await printer.receivedJobs(atLeast: 1, within: .seconds(30))
                #expect(received.contains { $0.jobName.contains("Waited on") })
            }
        }

        @Test func filesDroppedWhileTheAgentWasStoppedPrintOnceItStarts() async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await receiptPrinter(lab, "Agent Backlog")
            defer { printer.stop() }
            let agentFolder = try AgentHarness(lab: lab)
            try await agentFolder.assign(printer, to: "receipt")
            let drop = try agentFolder.makeFolder("drop")
            try agentFolder.writeConfiguration("""
                [[folder]]
                path = "drop"
                role = "receipt"
                """)
            let envelope = #"{"template": "receipt", "name": "Backlog NUMBER", "data": DATA}"#
                .replacingOccurrences(of: "DATA", with: try sampleData("receipt"))
            for number in 1...3 {
                try agentFolder.drop(envelope.replacingOccurrences(of: "NUMBER", with: "\(number)"), as: "order-\(number).json", into: drop)
            }
            let agent = try await agentFolder.start()
            defer { agent.stop() }
            let received = try await printer.receivedJobs(atLeast: 3)
            #expect(received.count == 3)
            #expect(Set(received.compactMap { $0.jobName.firstMatch(of: /Backlog (\d)/).map { String($0.1) } }) == ["1", "2", "3"])
            try await pollUntil("all three files in done/", within: .seconds(10)) {
                agentFolder.files(in: drop + "/done") == ["order-1.json", "order-2.json", "order-3.json"]
            }
            #expect(agentFolder.files(in: drop + "/processing").isEmpty)
        }

        /// The crash window between queueing a claimed file and moving it to
        /// done/: at the next start the file is offered again, and its job is
        /// found by its source instead of being queued a second time.
        @Test func aFileQueuedJustBeforeACrashIsNotQueuedAgain() async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await receiptPrinter(lab, "Agent Crash Window")
            defer { printer.stop() }
            let agentFolder = try AgentHarness(lab: lab)
            try await agentFolder.assign(printer, to: "receipt")
            let pos = try agentFolder.watchReceiptFolder()
            // As a crashed agent left it: the file claimed, its job queued, the file not yet in done/.
            let processing = try agentFolder.makeFolder("pos/processing")
            try Data(try sampleData("receipt").utf8).write(to: URL(fileURLWithPath: processing + "/order-9.json"))
            let store = try KioskStore(path: agentFolder.database)
            let queued = try await store.enqueue(name: "order-9", role: try Role("receipt"),
                                                 content: .template(name: "receipt", dataJSON: try sampleData("receipt")),
                                                 source: processing + "/order-9.json")
            // A file whose name an older job came from, an hour before this claim: not this claim's job.
            try Data(try sampleData("receipt").utf8).write(to: URL(fileURLWithPath: processing + "/order-8.json"))
            _ = try await store.enqueue(name: "order-8 of an hour ago", role: try Role("receipt"),
                                        content: .template(name: "receipt", dataJSON: try sampleData("receipt")),
                                        source: processing + "/order-8.json", at: Date().addingTimeInterval(-3600))

            let agent = try await agentFolder.start()
            defer { agent.stop() }
            try await pollUntil("both recovered files to reach done/", within: .seconds(20)) {
                agentFolder.files(in: pos + "/done") == ["order-8.json", "order-9.json"]
            }
            try await pollUntil("every job to print", within: .seconds(30)) {
                try await store.jobs(includeFinished: true).allSatisfy { $0.state == .completed }
            }
            let jobs = try await store.jobs(includeFinished: true)
            #expect(jobs.filter { $0.name == "order-9" }.count == 1)
            #expect(jobs.filter { $0.name == "order-8" }.count == 1, "the old job was not this claim's: the file is queued")
            #expect(agentFolder.logText.contains("order-9.json was already queued as job \(queued.id) before the agent stopped; not queued again."))
            #expect(try printer.receivedJobs().count == 3)
        }

        @Test func aBadConfigurationIsRefusedAtStartWithTheKeyAndStatus78() async throws {
            let lab = try await PrinterLab.shared()
            let agentFolder = try AgentHarness(lab: lab)
            try agentFolder.writeConfiguration("""
                [[folder]]
                path = "does-not-exist"
                role = "receipt"
                [[button]]
                name = "reprint"
                chip = "gpiochip0"
                line = 17
                debounce = "30"
                [button.press]
                reprint = "receipt"
                """)
            let run = try await agentFolder.runner.run(["run", "--config", agentFolder.configPath])
            #expect(run.status == 78)
            #expect(run.errors.contains("\(agentFolder.configPath): button[1].debounce: \"30\" has no unit; write it as \"30ms\""), "\(run.errors)")
            #expect(run.errors.contains("The agent did not start"))
        }
    }
}
