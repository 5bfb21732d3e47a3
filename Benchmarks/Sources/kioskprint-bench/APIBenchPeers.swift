import BenchSupport
import Foundation
import Simulator
import Synchronization

/// ipptool sending the receipt PDF as Print-Job to a private cupsd's
/// driverless queue for the same printer: the alternative a site would have
/// for "accept a job over IPP on loopback". The queue is disabled while it
/// runs (cupsd accepts and spools, its filters do not print), which favours
/// cupsd: KioskPrint prints its jobs while it accepts them.
struct CupsAcceptance: Sendable {
    var version: String
    var perJob: Duration
    var perSecond: Double

    static func measure(pdf: String, lab: PrinterLab, jobs: Int, folder: URL) async throws -> CupsAcceptance {
        // The receipt printer cupsd can make a driverless queue for (see CupsReceiptPrinter).
        let printer = try await lab.startPrinter(.recording(try CupsReceiptPrinter.preset()))
        defer { printer.stop() }
        let cups = try await PrivateCups.start(logLevel: "warn")
        defer { cups.stop() }
        if case .refused(let reason) = try await DriverlessQueue.add("receipt", uri: printer.uri, on: cups) {
            throw BenchError("cupsd made no driverless queue: \(reason)")
        }
        _ = try await TimedRun.run("cupsdisable", ["-h", cups.server, "receipt"], environment: [:], folder: folder)
        // One process sends the requests one after another on one connection (a test
        // file of `count` Print-Job tests); its own start is taken out by timing a
        // file of 1 beside a file of 1 + jobs.
        func ipptool(_ count: Int) async throws -> Duration {
            let file = folder.appendingPathComponent("print-jobs-\(count).test").path
            try String(repeating: Self.printJobTest, count: count).write(toFile: file, atomically: true, encoding: .utf8)
            let run = try await TimedRun.run("ipptool", ["-T", "30", "-f", pdf, cups.queueURI("receipt"), file],
                                             environment: [:], folder: folder, limit: .seconds(600))
            guard run.succeeded else { throw BenchError("ipptool Print-Job to cupsd failed: \(run.output.suffix(500))") }
            return run.elapsed
        }
        let one = try await ipptool(1)
        let many = try await ipptool(jobs + 1)
        let perJob = (many - one) / jobs
        return CupsAcceptance(version: try await LpPrintPath.packageVersion("cups", folder: folder), perJob: perJob,
                              perSecond: 1000 / Millis.value(perJob))
    }

    /// One Print-Job of the file given with -f, in ipptool's test syntax.
    static let printJobTest = """
        {
          NAME "Print-Job"
          OPERATION Print-Job
          GROUP operation-attributes-tag
          ATTR charset attributes-charset utf-8
          ATTR naturalLanguage attributes-natural-language en
          ATTR uri printer-uri $uri
          ATTR name requesting-user-name $user
          ATTR mimeMediaType document-format application/pdf
          FILE $filename
          STATUS successful-ok
        }

        """
}

/// `clients` event streams open at once while `jobs` receipts are posted:
/// whether every client gets every event, and how far apart in time the
/// first and the last client get the same one.
struct EventFanOut: Sendable {
    var events: Int
    var delivered: Int
    var spread: Sample

    static func measure(port: Int, secret: String, clients: Int, jobs: Int, body: [UInt8]) async throws -> EventFanOut {
        let streams = try (0..<clients).map { _ in try LoopbackHTTP(port: port) }
        let log = Log(clients: clients)
        for stream in streams {
            guard try stream.open("/v1/events", headers: ["Authorization": "Bearer \(secret)"]) == 200 else {
                throw BenchError("GET /v1/events was refused")
            }
        }
        let readers = streams.enumerated().map { index, stream in
            Task.detached {
                _ = try? await offloaded {
                    var id = ""
                    while let line = try stream.readLine() {
                        if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                        if line.hasPrefix("data: ") {
                            let now = ContinuousClock.now
                            log.seen.withLock { $0[index][id] = now }
                            if line.contains("\"state\":\"completed\"") { log.completed.withLock { $0[index] += 1 } }
                        }
                    }
                }
            }
        }
        _ = try await offloaded {
            try APIBench.acceptance(port: port, secret: secret, count: jobs, type: "application/json", body: body, path: "/v1/jobs")
        }
        let everyone = await pollUntil(within: .seconds(60)) { log.completed.withLock { $0.allSatisfy { $0 >= jobs } } }
        // Events after the last completion (a printer's state) may still be on their way to some clients.
        _ = await pollUntil(within: .seconds(5)) {
            log.seen.withLock { seen in
                let all = Set(seen.flatMap(\.keys))
                return seen.allSatisfy { $0.count == all.count }
            }
        }
        for stream in streams { stream.shutDown() }
        for reader in readers { await reader.value }
        guard everyone else { throw BenchError("not every event stream saw the \(jobs) jobs complete within 60 s") }
        let table = log.seen.withLock { $0 }
        let ids = Set(table.flatMap(\.keys))
        let spreads = ids.map { id in
            let times = table.compactMap { $0[id] }
            return (times.max() ?? .now) - (times.min() ?? .now)
        }
        return EventFanOut(events: ids.count, delivered: table.map(\.count).reduce(0, +), spread: Sample(spreads))
    }

    /// What the readers saw: per client, each event id and when it arrived, and its completed jobs.
    final class Log: Sendable {
        let seen: Mutex<[[String: ContinuousClock.Instant]]>
        let completed: Mutex<[Int]>

        init(clients: Int) {
            seen = Mutex(Array(repeating: [:], count: clients))
            completed = Mutex(Array(repeating: 0, count: clients))
        }
    }
}
