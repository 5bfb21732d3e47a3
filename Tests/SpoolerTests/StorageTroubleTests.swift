import Foundation
import GRDB
import PrintModel
import Simulator
import Spooler
import Store
import Templates
import Testing

/// A role whose database misbehaves (locked by another process, its disk
/// full) says why, reports itself stuck, loses nothing, and prints again by
/// itself once the trouble passes. Real SQLite files; the printers are
/// scripted, since the printer is not what is under test.
@Suite(.serialized, .timeLimit(.minutes(2))) struct StorageTroubleTests {
    static func configuration() -> SpoolerConfiguration {
        var configuration = SpoolerConfiguration(retry: RetryPolicy(initial: .milliseconds(1), maximum: .milliseconds(5)),
                                                 idlePoll: .milliseconds(5), followInterval: .milliseconds(5))
        configuration.roleRestart = RetryPolicy(initial: .milliseconds(20), maximum: .milliseconds(200), jitter: 0)
        return configuration
    }

    static func receipt(_ store: KioskStore, _ number: Int) async throws -> PrintJob {
        let sample = try #require(BuiltInTemplates.all.first { $0.name == "receipt" }?.sampleData)
        return try await store.enqueue(name: "Receipt \(number)", role: try Role("receipt"),
                                       content: .template(name: "receipt", dataJSON: sample))
    }

    /// Runs the spooler's agent loop in a task until `body` returns.
    static func whileRunning(_ spooler: Spooler, _ body: () async throws -> Void) async throws {
        let running = Task { try await spooler.run() }
        defer { running.cancel() }
        try await body()
    }

    @Test func aDatabaseLockedByAnotherProcessStopsTheRoleOnlyUntilItLetsGo() async throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-locked-\(UUID().uuidString)/kioskprint.sqlite").path
        let store = try KioskStore(path: path, busyTimeout: .milliseconds(50))
        _ = try await store.assign(uri: "ipp://receipt/ipp/print", serviceName: nil,
                                   capabilities: ScriptedDeliveryTests.capabilities("Receipt"), to: try Role("receipt"), as: .primary)
        let jobs = [try await Self.receipt(store, 1), try await Self.receipt(store, 2)]
        let printer = ScriptedChannel(.init())
        let events = EventLog()
        let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()),
                              configuration: Self.configuration(),
                              channels: ScriptedPrinters(byURI: ["ipp://receipt/ipp/print": printer]).channels) { events.append($0) }

        // Another process (an sqlite3 shell, a backup) holds the write lock.
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true  // the point: a transaction left open, as a shell would
        let other = try DatabaseQueue(path: path, configuration: holding)
        try await other.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        try await Self.whileRunning(spooler) {
            try await pollUntil("the receipt role to be reported stuck", within: .seconds(60)) {
                !spooler.health.stuck().isEmpty
            }
            let stuck = try #require(spooler.health.stuck().first)
            #expect(stuck.role == "receipt" && stuck.reason.contains("locked by another process"))
            #expect(stuck.reason.contains("fuser \(path)"), "it says how to find the holder")
            #expect(events.lines.contains { $0.hasPrefix("the receipt role stopped printing: The database \(path) stayed locked") })
            #expect(!printer.calls.contains("submit"), "nothing was sent while its record could not be written")

            try await other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
            for job in jobs {
                try await pollUntil("job \(job.id) to complete", within: .seconds(60)) {
                    try await store.job(job.id).state == .completed
                }
            }
            #expect(spooler.health.stuck().isEmpty, "printing again: healthy again")
            #expect(printer.submissions.count == 2, "each job printed once")
        }
    }

    @Test func aFullDiskLosesNothingAndPrintingResumesWhenThereIsRoomAgain() async throws {
        let mount = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-full-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let mounted = try Subprocess.run("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.path])
        try #require(mounted.status == 0, "mounting a small tmpfs needs root: \(mounted.errors)")
        defer {
            _ = try? Subprocess.run("umount", [mount.path])
            try? FileManager.default.removeItem(at: mount)
        }
        let path = mount.appendingPathComponent("kioskprint.sqlite").path
        let store = try KioskStore(path: path)
        _ = try await store.assign(uri: "ipp://receipt/ipp/print", serviceName: nil,
                                   capabilities: ScriptedDeliveryTests.capabilities("Receipt"), to: try Role("receipt"), as: .primary)
        var jobs: [PrintJob] = []
        for number in 1...3 { jobs.append(try await Self.receipt(store, number)) }

        // Fill the disk to the last byte.
        let filler = mount.appendingPathComponent("filler")
        let fill = try Subprocess.run("dd", ["if=/dev/zero", "of=\(filler.path)", "bs=64k"])
        #expect(fill.errors.contains("No space left on device"))
        // Enough writes fill what SQLite had in reserve: a new job cannot be queued, and says why.
        var refusal: (any Error)?
        for number in 4...400 where refusal == nil {
            do { _ = try await Self.receipt(store, number) } catch { refusal = error }
        }
        let error = try #require(refusal, "a full disk must refuse a new job at some point")
        #expect(store.explain(error).hasPrefix("The disk holding the database \(path) is full."))
        let queued = try await store.jobs().count

        let printer = ScriptedChannel(.init())
        let events = EventLog()
        let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()),
                              configuration: Self.configuration(),
                              channels: ScriptedPrinters(byURI: ["ipp://receipt/ipp/print": printer]).channels) { events.append($0) }
        try await Self.whileRunning(spooler) {
            try await pollUntil("the receipt role to be reported stuck on the full disk", within: .seconds(60)) {
                spooler.health.stuck().first?.reason.contains("is full") == true
            }
            #expect(try await store.jobs().count == queued, "nothing queued was lost")

            try FileManager.default.removeItem(at: filler)
            try await pollUntil("every queued job to complete", within: .seconds(30)) {
                try await store.jobs().isEmpty
            }
            #expect(spooler.health.stuck().isEmpty)
        }
        let finished = try await store.jobs(includeFinished: true)
        #expect(finished.count == queued && finished.allSatisfy { $0.state == .completed })
        #expect(Set(printer.submissions).count == printer.submissions.count, "none printed twice")
    }
}
