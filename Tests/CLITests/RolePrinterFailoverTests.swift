import Foundation
import Simulator
import Testing

/// A job CUPS sends to a role printer whose primary is out of paper: it
/// fails over to the backup, is cut at the length `lp -o media=` asked for,
/// completes once in CUPS's eyes and in the agent's, and shows in the
/// event stream and on the status page like any role job; the role
/// printer's DNS-SD record follows it to the backup.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(5))) struct RolePrinterFailoverTests {
        @Test func aCupsJobFailsOverFromAPaperOutPrimaryAndCompletesOnce() async throws {
            let lab = try await PrinterLab.shared()
            let tag = try Loopback.freePort()
            let primary = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("Failover Primary \(tag)")))
            defer { primary.stop() }
            let backup = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("Failover Backup \(tag)")))
            defer { backup.stop() }
            let site = try AgentHarness(lab: lab)
            let (ippPort, httpPort) = (try Loopback.freePort(), try Loopback.freePort())
            try site.writeConfiguration("""
                [spooler]
                failover-after = "1s"
                [ipp]
                listen = "127.0.0.1:\(ippPort)"
                [role.receipt]
                ipp-printer = true
                [http]
                listen = "127.0.0.1:\(httpPort)"
                """)
            try await site.assign(primary, to: "receipt")
            let added = try await site.runner.run(["printers", "add", backup.uri, "--role", "receipt", "--backup"])
            #expect(added.status == 0, "\(added.output)\(added.errors)")
            let agent = try await site.start()
            let token = try await site.token("screen", scope: "read")
            let events = site.folder + "/events.txt"
            let listener = try Spawned.start("curl", ["-s", "-N", "-H", "Authorization: Bearer \(token)",
                                                      "http://127.0.0.1:\(httpPort)/v1/events"], output: events)
            defer { listener.stop() }

            let cups = try await PrivateCups.start()
            defer { cups.stop() }
            let setup = try await DriverlessQueue.add("till", uri: "ipp://127.0.0.1:\(ippPort)/ipp/print/receipt", on: cups)
            #expect(setup == .ready, "lpadmin -m everywhere: \(setup)")
            // DNS-SD describes the printer the role prints on: the primary, until the job fails over.
            let bus = ["DBUS_SYSTEM_BUS_ADDRESS": lab.busAddress]
            func announced(_ printer: String) throws -> Bool {
                let browsed = try Subprocess.run(try ProgramPath.find("avahi-browse"), ["-rpt", "_ipp._tcp"], environment: bus).output
                return browsed.split(separator: "\n").contains { $0.hasPrefix("=") && $0.contains(";\(ippPort);") && $0.contains(printer) }
            }
            try await pollUntil("the role printer to be announced with its primary", within: .seconds(30)) { try announced("Failover Primary \(tag)") }
            // The primary runs out of paper after CUPS made its queue: the job meets it there.
            try await primary.setMediaLevel(0)
            let pdf = try RolePrinterKiosk.receiptPDF(in: site.folder, lengthMillimetres: 100)
            let lp = try Subprocess.run(try ProgramPath.find("lp"), ["-h", cups.server, "-d", "till", "-t", "Sale 4711",
                                                                    "-o", "media=Custom.80x150mm", pdf])
            #expect(lp.status == 0, "\(lp.output)\(lp.errors)")

            let received = try await backup.receivedJobs(atLeast: 1, within: .seconds(60))
            let mediaCol = received[0].attributes["IPP_MEDIA_COL"] ?? ""
            let length = mediaCol.firstMatch(of: /y-dimension=(\d+)/).flatMap { Int($0.1) }
            // CUPS 2.4 rounds a media= size to whole points: 150 mm arrives as 425 pt, 149.93 mm.
            #expect(length.map { abs($0 - 15_000) <= 20 } == true, "cut where lp -o media= asked: \(mediaCol)")
            try await pollUntil("cupsd to call the job completed", within: .seconds(60)) {
                let done = try Subprocess.run(try ProgramPath.find("lpstat"), ["-h", cups.server, "-W", "completed", "-o", "till"])
                return done.output.split(separator: "\n").count == 1
            }
            #expect(try primary.receivedJobs().isEmpty, "nothing reached the paper-out primary")
            #expect(try backup.receivedJobs().count == 1, "printed once")

            let jobs = try await site.runner.run(["jobs", "--all"])
            let rows = jobs.output.split(separator: "\n").filter { $0.contains("Sale 4711") }
            #expect(rows.count == 1 && rows[0].contains("completed"), "\(jobs.output)")
            try await pollUntil("the event stream to report the job completed", within: .seconds(20)) {
                let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
                return text.contains("Sale 4711") && text.contains("\"state\":\"completed\"")
            }
            let stream = try String(contentsOfFile: events, encoding: .utf8)
            #expect(stream.contains("failover") || stream.contains("Failover Backup \(tag)"), "the stream says where it went: \(stream.suffix(1500))")
            // The TXT record follows the role to its backup (updated in place, checked every 10 s).
            do {
                try await pollUntil("the TXT record to name the backup", within: .seconds(40)) { try announced("Failover Backup \(tag)") }
            } catch {
                let said = site.logText.split(separator: "\n").filter { $0.contains("DNS-SD") }.joined(separator: "\n")
                let browsed = try Subprocess.run(try ProgramPath.find("avahi-browse"), ["-rpt", "_ipp._tcp"], environment: bus).output
                let status = try await site.runner.run(["status"])
                Issue.record("\(error)\nThe agent said: \(said)\navahi-browse: \(browsed.split(separator: "\n").filter { $0.contains(";\(ippPort);") })\n\(status.output)")
            }
            let page = try Subprocess.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(token)", "http://127.0.0.1:\(httpPort)/"])
            #expect(page.output.contains("Sale 4711") && page.output.contains("Failover Backup \(tag)"), "the status page lists it: \(page.output.suffix(1500))")
            await site.stop(agent)
        }
    }
}
