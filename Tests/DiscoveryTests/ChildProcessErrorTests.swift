import Foundation
import Testing
@testable import Discovery
import Simulator

/// The errors a browse throws when Avahi cannot be reached, checked for real.
///
/// libdbus reads DBUS_SYSTEM_BUS_ADDRESS once, when the process first
/// connects to the system bus, and keeps that address for the life of the
/// process; and the lab has pointed this process at its own bus. So each check
/// runs in a child process: this very test binary, started again with
/// another bus address and told to run only `probe()`, which writes what the
/// browse threw to a file for the parent to read.
@Suite struct ChildProcessErrorTests {
    /// Set only in the child: where `probe()` writes its outcome.
    static let reportPath = ProcessInfo.processInfo.environment["KIOSKPRINT_DISCOVERY_PROBE_REPORT"]

    @Test(.enabled(if: reportPath != nil, "runs only in the child process the tests below start"))
    func probe() async throws {
        var outcome: String
        do {
            let printers = try await PrinterBrowser().snapshot(timeout: .seconds(10))
            outcome = "found \(printers.count) printers"
        } catch let error as DiscoveryError {
            switch error {
            case .daemonNotRunning: outcome = "daemonNotRunning"
            case .busUnreachable(let address): outcome = "busUnreachable \(address)"
            default: outcome = "other"
            }
            outcome += "\n" + error.description
        } catch {
            outcome = "unexpected \(error)"
        }
        try outcome.write(toFile: Self.reportPath!, atomically: true, encoding: .utf8)
    }

    @Test(.enabled(if: reportPath == nil))
    func aBusWithoutAvahiSaysTheDaemonIsNotRunningAndHowToAddByURI() async throws {
        let bus = try await ThrowawayBus.start()
        #expect(SystemBus.isReachable(bus.address), "a live bus socket counts as reachable")
        let report = try await Self.runProbe(busAddress: bus.address)
        bus.stop()
        let lines = report.split(separator: "\n", maxSplits: 1).map(String.init)
        #expect(lines.first == "daemonNotRunning", "\(report)")
        #expect(report.contains("sudo systemctl start avahi-daemon"))
        #expect(report.contains("kioskprint printers add ipp://HOST:631/ipp/print --role ROLE"))
    }

    @Test(.enabled(if: reportPath == nil))
    func noBusAtAllSaysTheBusIsUnreachable() async throws {
        let address = "unix:path=/tmp/kioskprint-no-such-bus-\(uniqueSuffix())"
        let report = try await Self.runProbe(busAddress: address)
        #expect(report.hasPrefix("busUnreachable \(address)\n"), "\(report)")
        #expect(report.contains("printers add"))
    }

    /// Runs `probe()` in a child process on `busAddress` and returns its report.
    static func runProbe(busAddress: String) async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("discovery-probe-\(uniqueSuffix())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.txt")
        let log = folder.appendingPathComponent("child.log")

        let child = try Spawned.start(
            try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            ["--testing-library", "swift-testing", "--filter", "ChildProcessErrorTests/probe"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddress, "KIOSKPRINT_DISCOVERY_PROBE_REPORT": report.path],
            output: log.path)
        let status = await child.exited(within: .seconds(60))
        if status == nil { child.stop() }
        guard let text = try? String(contentsOf: report, encoding: .utf8) else {
            let childLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            Issue.record("the child wrote no report (status \(status.map(String.init) ?? "still running")):\n\(childLog.suffix(2000))")
            return ""
        }
        return text
    }
}

/// A D-Bus bus with nobody on it, started for one test and stopped by its pid.
struct ThrowawayBus {
    let address: String
    private let daemon: Spawned
    private let folder: URL

    static func start() async throws -> ThrowawayBus {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("discovery-bus-\(uniqueSuffix())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let socket = folder.appendingPathComponent("bus").path
        let address = "unix:path=\(socket)"
        let daemon = try Spawned.start("/usr/bin/dbus-daemon",
                                       ["--session", "--nofork", "--nopidfile", "--address=\(address)"],
                                       output: folder.appendingPathComponent("dbus.log").path)
        let bus = ThrowawayBus(address: address, daemon: daemon, folder: folder)
        // The bus is usable once its socket exists.
        guard await pollUntil(within: .seconds(10), { FileManager.default.fileExists(atPath: socket) }) else {
            bus.stop()
            throw LabError.timedOut("dbus-daemon's socket at \(socket)")
        }
        return bus
    }

    func stop() {
        daemon.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
