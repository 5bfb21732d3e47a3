import Foundation
import Glibc
import Simulator
import Testing

/// Who may print on a raw role printer, how much, and where a job ends:
/// each refusal shown, and nothing a till sent lost.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(4))) struct RawRolePrinterGuardTests {
        static let receipt = Array("GUARD TEST\n".utf8) + [0x1D, 0x56, 0x42, 0x00]

        /// A site with a receipt role on the ESC/POS simulator, served raw with `settings`.
        static func site(_ settings: String, printer: EscPosPrinterSimulator) async throws -> (AgentHarness, Spawned) {
            let site = try AgentHarness(lab: try await PrinterLab.shared())
            try site.writeConfiguration("[role.receipt]\n" + settings)
            let added = try await site.runner.run(["printers", "add", printer.uri, "--role", "receipt", "--model", "TM-T20III"])
            #expect(added.status == 0, "\(added.output)\(added.errors)")
            return (site, try await site.start())
        }

        /// On an address other machines reach, only `raw-clients` may connect.
        /// (127.0.0.2 is such an address to the agent; clients come from
        /// 127.0.0.1 and 127.0.0.3, all on the loopback interface.)
        @Test func aClientOutsideTheAllowListIsClosedBeforeAByteIsRead() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let port = try Loopback.freePort()
            let (site, agent) = try await Self.site("raw-listen = \"127.0.0.2:\(port)\"\nraw-clients = [\"127.0.0.3\"]\n",
                                                    printer: printer)
            let stranger = try RawClient(host: "127.0.0.2", port: port, source: "127.0.0.1")
            try? await stranger.send([0x10, 0x04, 0x01] + Self.receipt)
            #expect([0, ECONNRESET].contains(try await stranger.readUntilClosed()), "closed without an answer")
            try await pollUntil("the refusal in the log", within: .seconds(10)) {
                site.logText.contains("a connection from 127.0.0.1 was refused: it is not in raw-clients (127.0.0.3/32)")
            }

            let till = try RawClient(host: "127.0.0.2", port: port, source: "127.0.0.3")
            try await till.send([0x10, 0x04, 0x01])
            #expect(try await till.receive(1) == [0x12], "a till on the list is answered: online")
            try await till.send(Self.receipt)
            till.finishSending()
            _ = try await till.readUntilClosed()
            _ = try await printer.pieces(atLeast: 1, within: .seconds(60))
            #expect(try await site.jobStates().count == 1, "only the allowed till's receipt became a job")
            await site.stop(agent)
        }

        /// `GS ( H` asks to be told once what came before is printed: the
        /// answer comes once it is safely queued, so the till knows it will print.
        /// On a kept connection, a pause of raw-job-gap ends a job too.
        @Test func aConfirmationAnswersOnceTheJobIsQueuedAndAPauseEndsTheNext() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let port = try Loopback.freePort()
            let (site, agent) = try await Self.site("raw-listen = \"127.0.0.1:\(port)\"\nraw-job-gap = \"200ms\"\n", printer: printer)
            let till = try RawClient(port: port)
            try await till.send(Self.receipt + [0x1D, 0x28, 0x48, 0x06, 0x00, 0x30, 0x30] + Array("0042".utf8))
            #expect(try await till.receive(7) == [0x37, 0x22] + Array("0042".utf8) + [0x00])
            #expect(try await site.jobStates().count == 1, "the job was in the queue when the answer came")

            _ = try await printer.pieces(atLeast: 1, within: .seconds(60))
            try await till.send(Array("SECOND\n".utf8) + [0x1D, 0x56, 0x42, 0x00])
            let pieces: [EscPosPiece]
            do { pieces = try await printer.pieces(atLeast: 2, within: .seconds(20)) } catch {
                Issue.record("\(error)\n\(site.logText)")
                throw error
            }
            #expect(pieces[1].text.contains { $0.text.contains("SECOND") }, "the pause ended the second job; the connection stays open")
            till.finishSending()
            _ = try await till.readUntilClosed()
            #expect(try await site.jobStates().count == 2)
            await site.stop(agent)
        }

        /// A till that turned Automatic Status Back on is told, unasked, when
        /// the printer runs out of paper (here: once a job met it so).
        @Test func automaticStatusBackIsSentAgainWhenThePaperRunsOut() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let port = try Loopback.freePort()
            let (site, agent) = try await Self.site("raw-listen = \"127.0.0.1:\(port)\"\nraw-job-gap = \"200ms\"\n", printer: printer)
            let watcher = try RawClient(port: port)
            try await watcher.send([0x1D, 0x61, 0x0F])
            #expect(try await watcher.receive(4) == [0x10, 0x00, 0x00, 0x00], "ASB at once: online, paper present")

            printer.update { $0.paperOut = true }
            let till = try RawClient(port: port)
            try await till.send(Self.receipt)
            till.finishSending()
            _ = try await till.readUntilClosed()
            #expect(try await watcher.receive(4) == [0x18, 0x00, 0x0F, 0x00], "ASB again, unasked: offline, paper end")
            await site.stop(agent)
        }

        /// More than a job may be (10 MB): the connection is closed, and what
        /// arrived is kept in refused/ with the reason, not queued, not lost.
        @Test func anOversizedStreamIsKeptInRefusedNotQueued() async throws {
            let printer = try EscPosPrinterSimulator()
            defer { printer.stop() }
            let port = try Loopback.freePort()
            let (site, agent) = try await Self.site("raw-listen = \"127.0.0.1:\(port)\"\n", printer: printer)
            let till = try RawClient(port: port)
            let line = Array(String(repeating: "X", count: 1023).utf8) + [0x0A]
            var sent = 0
            do {
                for _ in 0..<(11 * 1024) {
                    try await till.send(line)
                    sent += line.count
                }
            } catch {}
            #expect(sent > 10 * 1_048_576 - 4 * 1_048_576, "the agent read most of it before closing: \(sent) bytes")
            let refused = site.folder + "/state/refused"
            try await pollUntil("the bytes kept in refused/", within: .seconds(30)) {
                (try? FileManager.default.contentsOfDirectory(atPath: refused))?.contains { $0.hasSuffix(".reason.txt") } == true
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: refused)
            let kept = try #require(files.first { $0.hasSuffix(".escpos") })
            let reason = try String(contentsOfFile: refused + "/" + kept + ".reason.txt", encoding: .utf8)
            #expect(reason.contains("passed 10 MB"), "\(reason)")
            let size = try FileManager.default.attributesOfItem(atPath: refused + "/" + kept)[.size] as? Int ?? 0
            #expect(size > 10 * 1_048_576 && size % line.count == 0, "what arrived is kept whole: \(size) bytes")
            #expect(try await site.jobStates().isEmpty, "nothing was queued")
            await site.stop(agent)
        }

        /// A role whose printer speaks no raw language: the connection is closed
        /// unread, and the log says what to change.
        @Test func aRoleWithoutARawPrinterClosesTheConnectionAndSaysWhy() async throws {
            let lab = try await PrinterLab.shared()
            let ipp = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("Raw Guard IPP \(UUID().uuidString.prefix(4))")))
            defer { ipp.stop() }
            let site = try AgentHarness(lab: lab)
            let port = try Loopback.freePort()
            try site.writeConfiguration("[role.receipt]\nraw-listen = \"127.0.0.1:\(port)\"\n")
            let added = try await site.runner.run(["printers", "add", ipp.uri, "--role", "receipt"])
            #expect(added.status == 0, "\(added.output)\(added.errors)")
            let agent = try await site.start()
            let till = try RawClient(port: port)
            try? await till.send(Self.receipt)
            _ = try await till.readUntilClosed()
            try await pollUntil("the reason in the log", within: .seconds(10)) {
                site.logText.contains("was closed unread: no printer of the role receipt takes ESC/POS or ZPL")
            }
            #expect(try await site.jobStates().isEmpty)
            await site.stop(agent)
        }

        /// A role whose printer is a Star (Star Graphic mode): a till's ESC/POS
        /// would reach it as bytes it cannot print, so the raw port closes the
        /// connection unread and the log names the language and the ways in that work.
        @Test func aRoleWithAStarPrinterClosesTheRawPortAndNamesTheWaysThatWork() async throws {
            let lab = try await PrinterLab.shared()
            let star = try StarPrinterSimulator(configuration: .init(emulation: .starGraphic))
            defer { star.stop() }
            let site = try AgentHarness(lab: lab)
            let port = try Loopback.freePort()
            try site.writeConfiguration("[role.kitchen]\nraw-listen = \"127.0.0.1:\(port)\"\n")
            let added = try await site.runner.run(["printers", "add", star.uri, "--role", "kitchen", "--model", "TSP143"])
            #expect(added.status == 0, "\(added.output)\(added.errors)")
            let agent = try await site.start()
            let till = try RawClient(port: port)
            try? await till.send(Self.receipt)
            _ = try await till.readUntilClosed()
            try await pollUntil("the reason in the log", within: .seconds(10)) {
                site.logText.contains("was closed unread: its printer speaks Star Graphic, and the raw port serves ESC/POS and ZPL clients only")
            }
            #expect(site.logText.contains("through WebPRNT, ePOS-Print or IPP"))
            #expect(try await site.jobStates().isEmpty)
            #expect(star.record.pieces.isEmpty)
            await site.stop(agent)
        }
    }
}
