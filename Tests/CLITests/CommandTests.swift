import Foundation
import GRDB
import Testing
import PrintModel
import Simulator
import Store

/// The non-interactive commands, run as provisioning scripts would run them.
@Suite struct CommandTests {
    @Test func addListRemoveThroughTheCommandLine() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, database) = CommandRunner.forLab(lab)
        let receipt = try #require(lab.printer(.receipt80mm))

        let added = try await kioskprint.run(["printers", "add", receipt.uri, "--role", "receipt"])
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains("Saved \(receipt.name) (\(receipt.uri)) as the primary printer for the role 'receipt'."))

        let listed = try await kioskprint.run(["printers", "list", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]
        #expect(rows?.count == 1)
        #expect(rows?.first?["role"] as? String == "receipt")
        #expect(rows?.first?["uri"] as? String == receipt.uri)
        #expect(rows?.first?["kinds"] as? [String] == ["receipt", "roll"])
        // The roll a job is drawn for: 80 mm wide, 576 dots printable at 203 dpi, its cut range.
        let capabilities = rows?.first?["capabilities"] as? [String: Any]
        let roll = (capabilities?["rolls"] as? [[String: Any]])?.first
        #expect(capabilities?["resolution"] as? Int == 203)
        #expect(roll?["width"] as? Int == 8000 && roll?["printableDots"] as? Int == 576, "\(listed.output)")
        #expect(roll?["cutFrom"] as? Int == 2500 && roll?["cutTo"] as? Int == 300000, "\(listed.output)")

        let removed = try await kioskprint.run(["printers", "remove", receipt.name])
        #expect(removed.status == 0, "\(removed.errors)")
        #expect(removed.output.contains("Removed \(receipt.name)"))
        #expect(try await KioskStore(path: database).assignments().isEmpty)
    }

    @Test func aLabelPrinterIsRefusedAsTheReceiptPrinter() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, database) = CommandRunner.forLab(lab)
        let label = try #require(lab.printer(.label4x6))
        let refused = try await kioskprint.run(["printers", "add", label.uri, "--role", "receipt"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("\(label.name) is a label printer; the role 'receipt' needs a receipt or roll printer."))
        #expect(refused.errors.contains("--force"))
        #expect(try await KioskStore(path: database).assignments().isEmpty)

        let forced = try await kioskprint.run(["printers", "add", label.uri, "--role", "receipt", "--force"])
        #expect(forced.status == 0, "\(forced.errors)")
        #expect(forced.output.contains("Warning (saved anyway with --force)"))
    }

    @Test func anUnreachablePrinterIsRefusedNamingItAndSavedOnlyWithForce() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, database) = CommandRunner.forLab(lab)
        let uri = "ipp://127.0.0.1:9/ipp/print"  // discard port: nothing listens there
        // A refusal is known at once: the command must not wait out its 20 s timeout.
        let refused = try await kioskprint.run(["printers", "add", uri, "--role", "receipt", "--timeout", "20"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains(uri))
        #expect(refused.errors.contains("--force"))
        #expect(refused.elapsed < .seconds(10))
        #expect(try await KioskStore(path: database).assignments().isEmpty)

        let forced = try await kioskprint.run(["printers", "add", uri, "--role", "receipt", "--force", "--timeout", "3"])
        #expect(forced.status == 0, "\(forced.errors)")
        let check = try await kioskprint.run(["printers", "check", "--timeout", "3"])
        #expect(check.status == 1)
        #expect(check.output.contains("unreachable"))
        #expect(check.output.contains(uri))
    }

    @Test func notAURIIsExplained() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, _) = CommandRunner.forLab(lab)
        let refused = try await kioskprint.run(["printers", "add", "http://example/print", "--role", "receipt"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("ipp://HOST:PORT/PATH"))
    }

    @Test func discoverFiltersByKindAndSpeaksJSON() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, _) = CommandRunner.forLab(lab)
        let result = try await kioskprint.run(["printers", "discover", "--kind", "label", "--json", "--timeout", "20"])
        #expect(result.status == 0, "\(result.errors)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        let names = rows.compactMap { $0["name"] as? String }
        #expect(names.contains(try #require(lab.printer(.label4x6)).name))
        #expect(!names.contains(try #require(lab.printer(.receipt80mm)).name))
        #expect(rows.allSatisfy { ($0["kinds"] as? [String])?.contains("label") == true })

        let table = try await kioskprint.run(["printers", "discover", "--timeout", "20"])
        #expect(table.status == 0)
        for printer in lab.standardPrinters {
            #expect(table.output.contains(printer.name))
        }
        #expect(table.output.contains("NAME"))
    }

    @Test func pickWithoutATerminalPointsToAdd() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, _) = CommandRunner.forLab(lab)
        let result = try await kioskprint.run(["printers", "pick", "--role", "receipt"])
        #expect(result.status == 1)
        #expect(result.errors.contains("kioskprint printers add URI --role receipt"))
    }

    @Test func checkReportsAStoppedPrinterAndExitsNonZero() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, _) = CommandRunner.forLab(lab)
        let spare = try await lab.startPrinter(SimulatedPrinter.receipt58mm.named("KioskPrint Check Spare"))
        #expect(try await kioskprint.run(["printers", "add", spare.uri, "--role", "coupon"]).status == 0)
        let healthy = try await kioskprint.run(["printers", "check", "coupon"])
        #expect(healthy.status == 0, "\(healthy.output)\(healthy.errors)")
        #expect(healthy.output.contains("idle"))

        spare.stop()
        let broken = try await kioskprint.run(["printers", "check", "coupon", "--timeout", "2"])
        #expect(broken.status == 1)
        #expect(broken.output.contains("unreachable"))
        #expect(broken.output.contains(spare.uri))
    }

    @Test func withoutAvahiDiscoverSaysHowToStartItAndHowToAddByURI() async throws {
        // A bus address where nothing listens: no D-Bus, so no Avahi behind it either.
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-no-bus-\(UUID().uuidString)").path
        let kioskprint = CommandRunner(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(missing)"])
        let result = try await kioskprint.run(["printers", "discover", "--timeout", "3"])
        #expect(result.status == 1)
        #expect(result.errors.contains("cannot be reached"))
        #expect(result.errors.contains("kioskprint printers add ipp://HOST:631/ipp/print --role ROLE"))
    }

    @Test func theCommandLineReadsWhileAnotherProcessIsWriting() async throws {
        // The agent holds a write transaction open; an administrator's command must
        // still read the committed state at once (WAL), not wait or fail.
        let lab = try await PrinterLab.shared()
        let (kioskprint, database) = CommandRunner.forLab(lab)
        let receipt = try #require(lab.printer(.receipt80mm))
        #expect(try await kioskprint.run(["printers", "add", receipt.uri, "--role", "receipt"]).status == 0)

        // A connection of its own stands in for the agent's, as another process's would.
        let agent = try DatabasePool(path: database)
        let listedDuringWrite = try await agent.write { db in
            try db.execute(sql: "UPDATE printer SET contactedAt = contactedAt")  // takes the write lock now
            return try kioskprint.runBlocking(["printers", "list", "--json"], limit: .seconds(10))
        }
        #expect(listedDuringWrite.status == 0, "\(listedDuringWrite.errors)")
        #expect(listedDuringWrite.output.contains(receipt.uri))
    }
}
