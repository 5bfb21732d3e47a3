import Foundation
import PrintModel
import Simulator
import Store
import Testing

extension AgentEndToEnd {
    /// The running agent purges old finished jobs and their spool files at
    /// start, as one of its services, and says what it removed.
    @Suite(.timeLimit(.minutes(2))) struct AgentRetentionTests {
        @Test func theAgentPurgesAtStartAndLogsWhatItRemoved() async throws {
            let lab = try await PrinterLab.shared()
            let agentFolder = try AgentHarness(lab: lab)
            try agentFolder.writeConfiguration("""
                [retention]
                keep-for = "2d"
                keep-jobs = 100
                purge-every = "1h"
                """)
            let store = try KioskStore(path: agentFolder.database)
            let spool = try agentFolder.makeFolder("state/spool")
            let receipt = try Role("receipt")
            var copies: [String] = []
            for (index, age) in [10.0, 5, 1].enumerated() {
                let ended = Date() - age * 86_400
                let copy = spool + "/\(index)-menu.pdf"
                try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: copy))
                copies.append(copy)
                let job = try await store.enqueue(name: "Menu \(index)", role: receipt, content: .document(path: copy, format: "pdf"),
                                                  at: ended - 5)
                _ = try #require(try await store.claimNext(role: receipt, owner: "test", lease: .seconds(30), now: ended - 4))
                try await store.finish(jobID: job.id, owner: "test", state: .canceled, now: ended)
            }

            let agent = try await agentFolder.start()
            try await pollUntil("the agent to log its purge", within: .seconds(30)) {
                agentFolder.logText.contains("retention: Removed 2 finished jobs and 2 spool files")
            }
            await agentFolder.stop(agent)
            #expect(copies.map { FileManager.default.fileExists(atPath: $0) } == [false, false, true], "\(agentFolder.logText)")
            #expect(try await store.jobs(includeFinished: true).map(\.name) == ["Menu 2"])
            #expect(agentFolder.logText.contains("INFO retention: Removed"), "\(agentFolder.logText)")
        }
    }
}
