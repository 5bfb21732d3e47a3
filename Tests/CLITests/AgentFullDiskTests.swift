import Foundation
import PrintModel
import Simulator
import Store
import Testing

extension AgentEndToEnd {
    /// The agent with its database on a disk that fills up: a small tmpfs of
    /// the test's own under the database's folder, filled to the last byte.
    @Suite(.timeLimit(.minutes(4))) struct AgentFullDiskTests {
        @Test func aFullDiskRefusesNewJobsClearlyLosesNothingAndTheAgentResumesByItself() async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("Full Disk \(try Loopback.freePort())")))
            defer { printer.stop() }
            let site = try AgentHarness(lab: lab)
            let state = try site.makeFolder("state")
            let mounted = try Subprocess.run("mount", ["-t", "tmpfs", "-o", "size=6m", "tmpfs", state])
            try #require(mounted.status == 0, "mounting a small tmpfs needs root: \(mounted.errors)")
            defer { _ = try? Subprocess.run("umount", ["-l", state]) }
            try await site.assign(printer, to: "receipt")
            let pos = try site.watchReceiptFolder()
            let agent = try await site.start()
            defer { agent.stop() }
            let data = site.folder + "/order.json"
            try Data(try sampleData("receipt").utf8).write(to: URL(fileURLWithPath: data))
            // Out of paper: three receipts wait in the queue while the disk fills.
            try await printer.setMediaLevel(0)
            let store = try KioskStore(path: site.database)
            for number in 1...3 {
                let print = try await site.runner.run(["print", "receipt", "--data", data, "--role", "receipt", "--name", "Waiting \(number)"])
                #expect(print.status == 0, "\(print.errors)")
            }
            try await pollUntil("the receipts to wait for paper", within: .seconds(30)) {
                try await store.jobs().contains { $0.state == .waiting }
            }

            let filler = state + "/filler"
            _ = try Subprocess.run("dd", ["if=/dev/zero", "of=\(filler)", "bs=64k"])
            // SQLite may still have a little room inside its files: queue until the disk says no.
            var refusal: Subprocess.Output?
            var queued = 0
            for number in 1...200 where refusal == nil {
                let print = try await site.runner.run(["print", "receipt", "--data", data, "--role", "receipt", "--name", "Full \(number)"])
                if print.status == 0 { queued += 1 } else { refusal = print }
            }
            let refused = try #require(refusal, "a full disk must refuse a job at some point")
            #expect(refused.errors.contains("The disk holding the database \(site.database) is full"), "\(refused.errors)")
            #expect(refused.errors.contains("Nothing was queued"))

            let status = try await site.runner.run(["status", "--timeout", "2"])
            #expect(status.status == 1)
            #expect(status.output.contains("Disk: only"), "\(status.output)")

            // A file dropped now is kept: in failed/ with its reason, or still claimed, never gone.
            try site.drop(try sampleData("receipt"), as: "order-full.json", into: pos)
            try await pollUntil("the dropped file to be dealt with", within: .seconds(30)) {
                !site.files(in: pos + "/failed").isEmpty || !site.files(in: pos + "/done").isEmpty
            }
            let failed = site.files(in: pos + "/failed")
            if !failed.isEmpty {
                #expect(failed.contains("order-full.json"))
                let reason = (try? String(contentsOfFile: pos + "/failed/order-full.json.error", encoding: .utf8)) ?? ""
                #expect(reason.isEmpty || reason.contains("is full"), "the reason, when there was room to write it: \(reason)")
            }
            print("full disk: \(queued) job(s) queued before the refusal; the dropped file went to "
                + (failed.isEmpty ? "done/ (SQLite still had room)" : "failed/"))

            try FileManager.default.removeItem(atPath: filler)
            try await printer.setMediaLevel(250)
            try await pollUntil("every job queued before the disk filled to print", within: .seconds(60)) {
                try await store.jobs().isEmpty
            }
            let finished = try await store.jobs(includeFinished: true).filter { $0.name.hasPrefix("Full ") || $0.name.hasPrefix("Waiting ") }
            #expect(finished.count == queued + 3 && finished.allSatisfy { $0.state == .completed }, "nothing queued was lost")
            let received = try await printer.receivedJobs(atLeast: queued + 3)
            #expect(Set(received.map(\.jobName)).count == received.count, "none printed twice")
            let healthy = try await site.runner.run(["status", "--timeout", "2"])
            #expect(!healthy.output.contains("Disk: only") && !healthy.output.contains("cannot print"), "\(healthy.output)")
            await site.stop(agent)
        }
    }
}
