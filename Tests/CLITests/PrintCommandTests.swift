import Foundation
import Simulator
import PrintModel
import Store
import Testing

/// `kioskprint print` and `kioskprint jobs`, as a kiosk application's script runs them.
@Suite struct PrintCommandTests {
    @Test func printWaitPrintsWithoutAnAgentAndJobsShowsIt() async throws {
        let lab = try await PrinterLab.shared()
        let printer = try await lab.startPrinter(.recording(
            SimulatedPrinter.receipt80mm.named("CLI Receipt \(try Loopback.freePort())")))
        defer { printer.stop() }
        var (kioskprint, _) = CommandRunner.forLab(lab)
        #expect(try await kioskprint.run(["printers", "add", printer.uri, "--role", "receipt"]).status == 0)

        // FC_DEBUG=1024 makes fontconfig say each configuration file it loads: the
        // font warm-up begun before the arguments are parsed and the first layout
        // share one load (a layout that started before the warm-up ended used to
        // load it all again, beside it).
        kioskprint.environment["FC_DEBUG"] = "1024"
        let printed = try await kioskprint.run(["print", "receipt", "--role", "receipt", "--name", "Receipt 4711, till 3", "--wait"])
        kioskprint.environment["FC_DEBUG"] = nil
        #expect(printed.status == 0, "\(printed.output)\(printed.errors)")
        let loads = (printed.output + printed.errors).split(separator: "\n").filter {
            $0.contains("Loading config file from ") && $0.hasSuffix("/fonts.conf")
        }
        #expect(loads.count == 1, "\(loads)")
        #expect(printed.output.contains("Job 1 queued for the role receipt: \"Receipt 4711, till 3\"."))
        #expect(printed.output.contains("Job 1 printed on \(printer.name)."))
        let received = try await printer.receivedJobs(atLeast: 1)
        #expect(received.first?.jobName.hasPrefix("Receipt 4711, till 3 [kp-1-") == true)

        let listed = try await kioskprint.run(["jobs", "--all", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["state"] as? String == "completed")
        #expect((rows.first?["cutLengths"] as? [Int])?.count == 1)
        let shown = try await kioskprint.run(["jobs", "show", "1"])
        #expect(shown.output.contains("completed") && shown.output.contains("Cut at:"))

        let test = try await kioskprint.run(["printers", "test", "receipt"])
        #expect(test.status == 0, "\(test.output)\(test.errors)")
        #expect(test.output.contains("Test page printed on \(printer.name), cut at"))
        #expect(try await printer.receivedJobs(atLeast: 2).contains { $0.jobName.hasPrefix("Test page for receipt") })
    }

    @Test func badInputIsRefusedAndNothingIsQueued() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, database) = CommandRunner.forLab(lab)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-print-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encrypted = folder.appendingPathComponent("secret.pdf")
        try Data("%PDF-1.4\ntrailer << /Encrypt 2 0 R >>\n%%EOF\n".utf8).write(to: encrypted)
        let data = folder.appendingPathComponent("order.json")
        try #"{"store": {"name": "X"}}"#.write(to: data, atomically: true, encoding: .utf8)

        let pdf = try await kioskprint.run(["print", "--file", encrypted.path, "--role", "boarding-pass"])
        #expect(pdf.status != 0)
        #expect(pdf.errors.contains("encrypted") && pdf.errors.contains("Nothing was queued"))
        let template = try await kioskprint.run(["print", "receipt", "--data", data.path, "--role", "receipt"])
        #expect(template.status != 0)
        #expect(template.errors.contains("receipt.xml:") && template.errors.contains("Nothing was queued"))
        #expect(try await KioskStore(path: database).jobs(includeFinished: true).isEmpty)
    }

    /// Issue 14: a name the printer would cut, or too long for the marker, is refused before anything is queued.
    @Test func aJobNameWithAControlCharacterOrTooLongIsRefused() async throws {
        let bell = try await CommandRunner().run(["print", "receipt", "--role", "receipt", "--name", "Receipt\u{7}4711"])
        #expect(bell.status != 0)
        #expect(bell.errors.contains("--name: the job name has a control character (U+0007) at character 8"), "\(bell.errors)")
        let long = try await CommandRunner().run(["print", "receipt", "--role", "receipt", "--name", String(repeating: "x", count: 239)])
        #expect(long.status != 0)
        #expect(long.errors.contains("--name: the job name is 239 bytes long, more than the 200 bytes a job name may be"),
                "\(long.errors)")
    }

    /// Issue 14: `print --data` reads the data as strictly as `templates check` and the folders do.
    @Test func printRefusesDataThatTemplatesCheckRefuses() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, database) = CommandRunner.forLab(lab)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let latin1 = folder.appendingPathComponent("latin1.json")
        try Data(Array(#"{"store": {"name": "Caf"#.utf8) + [0xE9] + Array(#""}}"#.utf8)).write(to: latin1)
        let huge = folder.appendingPathComponent("huge.json")
        try #"{"receipt": {"id": 12345678901234567890}}"#.write(to: huge, atomically: true, encoding: .utf8)

        for (file, reason) in [(latin1.path, "the data is not UTF-8 text (byte 24 cannot be read)"),
                               (huge.path, "12345678901234567890 is a whole number beyond 64 bits")] {
            let check = try await kioskprint.run(["templates", "check", "receipt", "--data", file])
            #expect(check.status == 1 && check.output.contains(reason), "\(check.output)")
            let printed = try await kioskprint.run(["print", "receipt", "--data", file, "--role", "receipt"])
            #expect(printed.status != 0)
            #expect(printed.errors.contains("\(file):1:") && printed.errors.contains(reason), "\(printed.errors)")
            #expect(printed.errors.contains("Nothing was queued"), "\(printed.errors)")
        }
        #expect(try await KioskStore(path: database).jobs(includeFinished: true).isEmpty)
    }

    @Test func aQueuedJobIsCanceledAtOnce() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, _) = CommandRunner.forLab(lab)
        // No printer holds the role: the job waits in the queue.
        let queued = try await kioskprint.run(["print", "boarding-pass", "--role", "gate-b32"])
        #expect(queued.status == 0, "\(queued.errors)")
        #expect(queued.output.contains("no printer holds the role gate-b32 yet"))
        let canceled = try await kioskprint.run(["jobs", "cancel", "1"])
        #expect(canceled.output.contains("is canceled; it had not reached a printer"))
        let retried = try await kioskprint.run(["jobs", "retry", "1"])
        #expect(retried.output.contains("is queued again"))
        #expect(try await kioskprint.run(["jobs"]).output.contains("queued"))
    }
}

/// `kioskprint jobs` reads a page at a time and says how to see the rest.
@Suite struct JobsPagingCommandTests {
    @Test func theNewestJobsAreListedWithTheWayToOlderOnes() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, database) = CommandRunner.forLab(lab)
        let store = try KioskStore(path: database)
        for number in 1...7 {
            _ = try await store.enqueue(name: "Paged \(number)", role: try Role("nobody"),
                                        content: .template(name: "receipt", dataJSON: "{}"))
        }
        let page = try await kioskprint.run(["jobs", "--limit", "3"])
        #expect(page.status == 0, "\(page.errors)")
        #expect(page.output.contains("Paged 7") && page.output.contains("Paged 5") && !page.output.contains("Paged 4"))
        #expect(page.output.contains("Showing the newest 3 of 7. Older ones: kioskprint jobs --before 5"))
        let back = try await kioskprint.run(["jobs", "--limit", "3", "--before", "5"])
        #expect(back.output.contains("Paged 4") && back.output.contains("Paged 2") && !back.output.contains("Paged 5"))
        let refused = try await kioskprint.run(["jobs", "--limit", "0"])
        #expect(refused.status != 0 && refused.errors.contains("--limit must be 1 to 10000"))
    }
}
