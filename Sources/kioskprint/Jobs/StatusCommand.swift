import Agent
import ArgumentParser
import CommandLineOutput
import Foundation
import HTTPAPI
import RawRolePrinters
import PrintModel
import RawPrinters
import Setup
import Spooler
import Store

/// `kioskprint status`: is the agent up, what is queued, and how each role's printers are.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether the agent is running, the queue, and each role's printers and their state.",
        discussion: "Exits with status 1 when the agent is not running or a printer is unreachable or needs attention, so monitoring can run it.")

    @Option(help: "Seconds to wait for each printer.")
    var timeout: Double = 3

    @OptionGroup var storage: DatabaseOptions

    /// Jobs listed by name under each heading; the rest are counted.
    static let listed = 20

    /// Below this much free space where the database is, jobs soon cannot be recorded.
    static let lowSpace: Int64 = 1 << 20

    func run() async throws {
        let path = DatabaseLocation.resolve(explicit: storage.database)
        let store = try storage.openExisting()
        let lock = AgentLock(databasePath: path)
        let running = lock.isHeld
        if running {
            print("Agent: running\(lock.holder.map { " (pid \($0))" } ?? ""), database \(path).")
        } else {
            print("Agent: not running for \(path). Start it with `systemctl start kioskprint` (or `kioskprint run`).")
        }

        if running, let served = RolePrinterRecord.recorded(forDatabase: path) {
            print(RolePrinterLines.describe(served))
        }
        if running, let raw = RawPrinterRecord.recorded(forDatabase: path), !raw.listeners.isEmpty {
            print(raw.description)
        }

        // Counts and the newest few of each kind: status never reads every job the box has kept.
        let unfinished = try await store.jobCounts(.unfinished)
        let total = unfinished.values.reduce(0, +)
        let perRole = unfinished.isEmpty ? "." : " (" + unfinished.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            .joined(separator: ", ") + ")."
        print("Queue: \(total) job(s) not finished\(perRole)")
        let waiting = try await store.jobs(.states([.waiting]), limit: Self.listed)
        for job in waiting {
            let reason = job.lastError ?? "the printer is not ready."
            print("  job \(job.id) \"\(job.name)\" waits: \(reason)\(reason.hasSuffix(".") ? "" : ".")")
        }
        let waitingCount = try await store.jobCounts(.states([.waiting])).values.reduce(0, +)
        if waitingCount > waiting.count { print("  ... and \(waitingCount - waiting.count) more waiting (kioskprint jobs).") }
        // Held jobs may or may not have printed: only a person can say, so they make status fail.
        let held = try await store.jobs(.states([.held]), limit: Self.listed)
        for job in held {
            print("  job \(job.id) \"\(job.name)\" is held: \(job.lastError ?? "its fate is unknown; check the printer.")")
        }
        let heldCount = try await store.jobCounts(.states([.held])).values.reduce(0, +)
        if heldCount > held.count { print("  ... and \(heldCount - held.count) more held (kioskprint jobs --all).") }
        if let failed = try await store.jobs(.states([.failed]), limit: 1).last {
            print("Last failure: job \(failed.id) \"\(failed.name)\": \(failed.lastError ?? "no reason recorded") "
                + "(`kioskprint jobs retry \(failed.id)` sends it again).")
        }

        // A full disk stops every write, the agent's note of it included: look at the disk itself.
        let folder = (path as NSString).deletingLastPathComponent
        let free = (try? FileManager.default.attributesOfFileSystem(forPath: folder)[.systemFreeSize] as? NSNumber)?.int64Value
        let diskFull = free.map { $0 < Self.lowSpace } ?? false
        if let free, diskFull {
            print("Disk: only \(free / 1024) KB free where the database is (\(folder)). New jobs cannot be queued and "
                + "queued ones wait; free space there (df -h \(folder)) and printing resumes by itself.")
        }
        // Roles the running agent cannot print for (the disk full, the database locked or damaged).
        let stuck = running ? RoleHealth.recorded(forDatabase: path) : []
        for failure in stuck {
            print("Role \(failure.role) cannot print: \(failure.reason) (\(failure.count) failures in a row "
                + "since \(failure.since.formatted(date: .omitted, time: .standard))).")
        }

        let checked: [RoleSetup.Checked]
        do { checked = try await RoleSetup(store: store, contactTimeout: seconds(timeout), usbPrinters: .fromEnvironment).check() } catch { throw CLIError(error) }
        print("")
        print(checked.isEmpty ? "No printers saved yet. Pick one with: kioskprint printers pick --role receipt" : CheckTable.render(checked))
        if !running || diskFull || !held.isEmpty || !stuck.isEmpty || checked.contains(where: { !$0.isReady }) { throw ExitCode(1) }
    }
}

/// The role printers' lines of `status`: where they are served (IPP, and
/// the ePOS-Print and WebPRNT addresses to give the tills) and the
/// certificate a client is asked to trust, by the fingerprint it shows.
enum RolePrinterLines {
    static func describe(_ served: RolePrinterRecord) -> String {
        // Addresses end their lines with no full stop: an administrator copies them into a till.
        var text = served.roles.isEmpty ? "Role printers: none over IPP."
            : "Role printers: \(served.roles.map { served.base + $0 }.joined(separator: ", "))"
        let endpoints = served.endpoints ?? []
        if !endpoints.isEmpty { text += (served.roles.isEmpty ? "" : ".") + endpoints.map { "\n  \($0)" }.joined() }
        guard let hex = served.fingerprint, let fingerprint = CertificateFingerprint(hex) else {
            return text + (served.roles.isEmpty || !endpoints.isEmpty ? "" : ".")
        }
        let until = served.notValidAfter.map { " until \($0.formatted(date: .abbreviated, time: .omitted))" } ?? ""
        text += "\n  TLS certificate SHA-256 \(fingerprint.colonSeparated)"
        text += served.madeByAgent
            ? "\n  (made by the agent, self-signed, valid\(until): a client asks to trust it once; compare this fingerprint with the one it shows)."
            : "\n  (\(served.certificatePath ?? "given in [ipp]"), valid\(until))."
        return text
    }
}
