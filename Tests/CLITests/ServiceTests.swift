import Foundation
import Glibc
import Simulator
import Testing

/// `kioskprint run` as systemd runs it (Type=notify), and the unit's hardening.
@Suite struct ServiceTests {
    @Test func runSaysReadyToSystemdAndStopsCleanlyOnSIGTERM() async throws {
        let lab = try await PrinterLab.shared()
        let (kioskprint, _) = CommandRunner.forLab(lab)
        let notify = try NotifySocket()
        var environment = kioskprint.environment.merging(ProcessInfo.processInfo.environment) { ours, _ in ours }
        environment["NOTIFY_SOCKET"] = notify.path
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-run-\(UUID().uuidString).log")
        let agent = try Spawned.start(CommandRunner.executable.path, ["run"], environment: environment, output: log.path)
        defer { agent.stop() }

        let ready = try await offloaded { notify.receive() }
        #expect(ready == "READY=1\nSTATUS=0 folders, 0 buttons, 0 lights; 0 job(s) queued", "\(ready ?? "nothing")")
        agent.signal(SIGTERM)
        let stopping = try await offloaded { notify.receive() }
        #expect(stopping == "STOPPING=1")
        #expect(await agent.exited(within: .seconds(20)) == 0)
        #expect(try String(contentsOf: log, encoding: .utf8).contains("the queue is kept"))
    }

    @Test func theUnitIsHardenedToAnExposureOfOneAndAHalfOrLess() throws {
        let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("systemd/kioskprint.service").path
        let analysis = try Subprocess.run("systemd-analyze", ["security", "--offline=true", unit], limit: .seconds(60))
        let text = analysis.output + analysis.errors
        let figure = try #require(text.firstMatch(of: /Overall exposure level for kioskprint.service: ([0-9.]+)/),
                                  "\(text.suffix(500))")
        let exposure = try #require(Double(figure.1))
        #expect(exposure <= 1.5)
        // Devices: GPIO chips only (and the clock, which ProtectClock leaves readable).
        let unitText = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(unitText.contains("DeviceAllow=char-gpiochip rw"))
        // Raw printers on USB (usblp) and serial lines, and the limits the figures justify.
        for line in ["DeviceAllow=char-usb rw", "DeviceAllow=char-ttyUSB rw", "SupplementaryGroups=lp gpio dialout",
                     "MemoryMax=320M", "TasksMax=64"] {
            #expect(unitText.contains(line), "the unit lacks \(line)")
        }
    }

    /// The user and the spool folder a package would create: sysusers.d and
    /// tmpfiles.d applied to a scratch root, as systemd applies them at boot.
    @Test func theUserAndTheSpoolFolderAreCreatedWithTheRightOwnerAndMode() throws {
        let systemd = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("systemd").path
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-root-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/etc", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let users = try Subprocess.run("systemd-sysusers", ["--root=\(root)", "\(systemd)/kioskprint.sysusers"], limit: .seconds(30))
        #expect(users.status == 0, "\(users.errors)")
        let passwd = try String(contentsOfFile: root + "/etc/passwd", encoding: .utf8)
        let entry = try #require(passwd.split(separator: "\n").first { $0.hasPrefix("kioskprint:") })
        let uid = try #require(Int(entry.split(separator: ":")[2]))
        let group = try String(contentsOfFile: root + "/etc/group", encoding: .utf8)
        #expect(group.split(separator: "\n").contains { $0.hasPrefix("lp:") && $0.hasSuffix("kioskprint") })
        #expect(group.split(separator: "\n").contains { $0.hasPrefix("dialout:") && $0.contains("kioskprint") })

        let folders = try Subprocess.run("systemd-tmpfiles", ["--create", "--root=\(root)", "\(systemd)/kioskprint.tmpfiles"],
                                         limit: .seconds(30))
        #expect(folders.status == 0, "\(folders.errors)")
        var info = stat()
        #expect(stat(root + "/var/spool/kioskprint", &info) == 0)
        #expect(Int(info.st_uid) == uid)
        // setgid (files stay in the group) and sticky (no one else's link in place of the agent's subfolders).
        #expect(info.st_mode & 0o7777 == 0o3770)
        // The unit may write there despite ProtectSystem=strict.
        #expect(try String(contentsOfFile: systemd + "/kioskprint.service", encoding: .utf8)
            .contains("ReadWritePaths=-/var/spool/kioskprint"))
    }
}
