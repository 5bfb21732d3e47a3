import Foundation
import Simulator
import Testing

/// A role served as a raw printer (`raw-listen`): what a till writes to a
/// printer's port 9100 goes through the agent's queue to the role's printer.
/// The clients are ones nobody here wrote: python-escpos (PyPI) and socat.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(4))) struct RawRolePrinterTests {
        /// python-escpos's `Network` printer pointed at the agent: its status
        /// asks are answered by the agent, and its text, raster image, QR code
        /// and cut reach the printer exactly as it wrote them.
        @Test func pythonEscposPrintsThroughTheRawListenerByteForByte() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let site = try AgentHarness(lab: try await PrinterLab.shared())
            let port = try Loopback.freePort()
            try site.writeConfiguration("[role.receipt]\nraw-listen = \"127.0.0.1:\(port)\"\n")
            let added = try await site.runner.run(["printers", "add", printer.uri, "--role", "receipt", "--model", "TM-T20III"])
            #expect(added.status == 0, "\(added.output)\(added.errors)")
            let agent = try await site.start()

            let client = try PythonEscpos.run(port: port, folder: site.folder)
            #expect(client.online == true, "DLE EOT 1 answered online")
            #expect(client.paper == 2, "DLE EOT 4 answered: paper adequate")
            _ = try await printer.pieces(atLeast: 1, within: .seconds(60))
            let received = printer.record.received
            #expect(received.firstRange(of: client.sent) != nil,
                    "the \(client.sent.count) bytes python-escpos sent arrive unchanged (\(received.count) bytes arrived)")
            let piece = try #require(printer.pieces.first)
            #expect(piece.text.contains { $0.text.contains("KioskPrint raw test") }, "the text line printed")
            try await pollUntil("the job to be completed", within: .seconds(30)) { try await site.jobStates() == ["completed"] }
            let status = try await site.runner.run(["status"])
            #expect(status.output.contains("Raw printers (port 9100 style): receipt on 127.0.0.1:\(port)."), "\(status.output)")

            // Announced as a raw printer of the model the role prints on, which discovery looks up in its catalog.
            let bus = ["DBUS_SYSTEM_BUS_ADDRESS": try await PrinterLab.shared().busAddress]
            var browsed = ""
            try await pollUntil("avahi-browse to list the raw printer", within: .seconds(30)) {
                browsed = try Subprocess.run(try ProgramPath.find("avahi-browse"), ["-rpt", "_pdl-datastream._tcp"], environment: bus).output
                return browsed.split(separator: "\n").contains { $0.hasPrefix("=") && $0.contains(";\(port);") }
            }
            let resolved = try #require(browsed.split(separator: "\n").first { $0.hasPrefix("=") && $0.contains(";\(port);") })
            for pair in ["\"pdl=application/vnd.escpos\"", "\"ty=Epson TM-T20III\"", "\"note=KioskPrint role receipt\""] {
                #expect(resolved.contains(pair), "TXT \(pair) in \(resolved)")
            }
            #expect(resolved.contains(#"receipt\032\064\032"#), "named \"receipt @ BOX\": \(resolved)")
            await site.stop(agent)
        }

        /// A primary out of paper: the till's job goes to the backup, once.
        @Test func aPaperOutPrimaryFailsOverToTheBackup() async throws {
            let primary = try EscPosPrinterSimulator(), backup = try EscPosPrinterSimulator()
            defer { primary.stop(); backup.stop() }
            let site = try AgentHarness(lab: try await PrinterLab.shared())
            let port = try Loopback.freePort()
            // A job waits failover-after on a primary in trouble before it goes to the backup: 1 s here, not 30.
            try site.writeConfiguration("[spooler]\nfailover-after = \"1s\"\n[role.receipt]\nraw-listen = \"127.0.0.1:\(port)\"\n")
            for (printer, extra) in [(primary, [String]()), (backup, ["--backup"])] {
                let added = try await site.runner.run(["printers", "add", printer.uri, "--role", "receipt", "--model", "TM-T20III"] + extra)
                #expect(added.status == 0, "\(added.output)\(added.errors)")
            }
            primary.update { $0.paperOut = true }
            let agent = try await site.start()

            let client = try PythonEscpos.run(port: port, folder: site.folder)
            _ = try await backup.pieces(atLeast: 1, within: .seconds(60))
            #expect(backup.record.received.firstRange(of: client.sent) != nil, "the backup printed the till's bytes")
            #expect(primary.pieces.isEmpty && primary.record.received.firstRange(of: client.sent) == nil, "nothing reached the primary")
            let again = try PythonEscpos.status(port: port, folder: site.folder)
            #expect(again.paper == 2, "a status ask now answers for the backup the role prints on: \(again)")
            await site.stop(agent)
        }

        /// socat writes a carrier's ZPL label to a ZPL role, and asks `~HS`.
        @Test func socatSendsAZPLLabelAndItsHostStatusIsAnswered() async throws {
            let printer = try ZPLPrinterSimulator()
            defer { printer.stop() }
            let site = try AgentHarness(lab: try await PrinterLab.shared())
            let port = try Loopback.freePort()
            try site.writeConfiguration("[role.label]\nraw-listen = \"127.0.0.1:\(port)\"\n")
            let added = try await site.runner.run(["printers", "add", printer.uri, "--role", "label", "--model", "ZD420-203dpi"])
            #expect(added.status == 0, "\(added.output)\(added.errors)")
            let agent = try await site.start()

            let label = "^XA^FO50,50^A0N,40,40^FDSHIP TO: 4711^FS^FO50,120^BCN,80,Y,N,N^FD1Z999AA10123456784^FS^XZ\n"
            let file = site.folder + "/label.zpl"
            try Data(label.utf8).write(to: URL(fileURLWithPath: file))
            let sent = try Subprocess.run(try ProgramPath.find("socat"), ["-u", "FILE:\(file)", "TCP:127.0.0.1:\(port)"])
            #expect(sent.status == 0, "\(sent.errors)")
            let printed = try await printer.labels(atLeast: 1, within: .seconds(60))
            #expect(printed.first?.fields.contains { $0.data.contains("SHIP TO: 4711") } == true, "the label's field printed")
            #expect(String(decoding: printer.record.received, as: UTF8.self).contains(label), "the ZPL arrived unchanged")

            let asked = site.folder + "/ask.zpl"
            try Data("~HS".utf8).write(to: URL(fileURLWithPath: asked))
            let status = try Subprocess.run(try ProgramPath.find("socat"), ["-t", "10", "FILE:\(asked)!!STDOUT", "TCP:127.0.0.1:\(port)"])
            let strings = status.output.split(separator: "\u{02}").count
            #expect(strings == 3 && status.output.contains("\u{03}"), "~HS answered with three framed strings: \(status.output.debugDescription)")
            try await pollUntil("the label's job to be completed", within: .seconds(30)) { try await site.jobStates().first == "completed" }
            #expect(try await site.jobStates() == ["completed"], "a connection that only asked is no job: nothing of it reaches the printer")
            await site.stop(agent)
        }
    }
}

extension AgentHarness {
    /// The states of every job, oldest first (`kioskprint jobs list --all --json`).
    func jobStates() async throws -> [String] {
        let listed = try await runner.run(["jobs", "list", "--all", "--json"])
        let jobs = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]] ?? []
        return jobs.compactMap { $0["state"] as? String }
    }
}
