import BenchSupport
import Foundation
import PrintModel
import Spooler
@_spi(Testing) import Store
import Templates

/// One run of the retention soak: `jobs` jobs through a fresh store as the
/// spooler takes them (enqueue, claim, markSending, markSent, finish), every
/// `documentEvery`-th a PDF copied into the spool folder by JobIntake, the
/// rest a receipt template with the built-in sample's data; with a purge
/// every `purgeEvery` jobs, or (`purging` false) none, as before retention.
/// The clock is simulated: a job every `jobSpacing` seconds of shop time.
struct RetentionSoak {
    /// What the database and spool folder hold after some jobs.
    struct Point {
        var jobs: Int
        var databaseBytes: Int64
        var walBytes: Int64
        var spoolBytes: Int64
        var spoolFiles: Int
        var rows: Int
    }

    static let documentEvery = 10
    static let documentBytes = 8 * 1024
    static let jobSpacing: TimeInterval = 30

    let jobs: Int
    let samples: [Int]
    let purging: Bool
    let keepJobs: Int
    let keepFor: Duration
    let purgeEvery: Int

    private(set) var points: [Point] = []
    private(set) var purgeTimes: [Duration] = []
    private(set) var purgedJobs = 0
    private(set) var elapsed = Duration.zero

    mutating func run(in folder: String) async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try KioskStore(path: folder + "/kioskprint.sqlite")
        let catalog = TemplateCatalog()
        let intake = JobIntake(store: store, catalog: catalog)
        let receiptData = try catalog.find("receipt").sampleData ?? "{}"
        let document = folder + "/menu.pdf"
        let body = "%PDF-1.4\n%" + String(repeating: "m", count: Self.documentBytes - 20) + "\n%%EOF\n"
        try Data(body.utf8).write(to: URL(fileURLWithPath: document))
        let role = try Role("receipt")
        let printer = JobPrinter(id: 1, name: "Bench TM-T88", uri: "ipp://bench/ipp/print")
        let retention = JobRetention(store: store, spoolFolder: intake.spoolFolder, keepFor: keepFor, keepJobs: keepJobs)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let began = ContinuousClock.now

        points.append(try await measure(0, store: store, folder: folder, spool: intake.spoolFolder))
        for number in 1...jobs {
            let now = start.addingTimeInterval(Double(number) * Self.jobSpacing)
            if number % Self.documentEvery == 0 {
                _ = try await intake.queueFile(document, role: role)
            } else {
                _ = try await store.enqueue(name: "Receipt \(number)", role: role,
                                            content: .template(name: "receipt", dataJSON: receiptData), at: now)
            }
            guard let job = try await store.claimNext(role: role, owner: "bench", lease: .seconds(60), now: now) else {
                throw BenchError("job \(number) was not claimed")
            }
            try await store.markSending(jobID: job.id, owner: "bench", printer: printer, cutLengths: [17_355], now: now + 0.1)
            try await store.markSent(jobID: job.id, owner: "bench", printerJobID: number, now: now + 0.2)
            try await store.finish(jobID: job.id, owner: "bench", state: .completed, now: now + 1)
            if purging, number % purgeEvery == 0 {
                let clock = ContinuousClock.now
                purgedJobs += try await retention.purge(now: now + 2).jobs
                purgeTimes.append(ContinuousClock.now - clock)
            }
            if samples.contains(number) {
                points.append(try await measure(number, store: store, folder: folder, spool: intake.spoolFolder))
                progress("\(purging ? "purging" : "no purge"): \(number) jobs")
            }
        }
        elapsed = ContinuousClock.now - began
    }

    private func measure(_ jobs: Int, store: KioskStore, folder: String, spool: String) async throws -> Point {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []
        let spoolBytes = files.reduce(Int64(0)) { $0 + Self.size(spool + "/" + $1) }
        return Point(jobs: jobs, databaseBytes: Self.size(store.path), walBytes: Self.size(store.path + "-wal"),
                     spoolBytes: spoolBytes, spoolFiles: files.count, rows: try await store.jobCount())
    }

    private static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
