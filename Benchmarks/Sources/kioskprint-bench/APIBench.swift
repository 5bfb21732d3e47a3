import BenchSupport
import Foundation
import PrintModel
import Simulator
import Store

/// `kioskprint-bench api [--jobs N]`: the HTTP API of the release agent.
/// `POST /v1/jobs` acceptance (request sent to 201 read) on one kept-alive
/// loopback connection, N receipts as template data and N as PDF, beside
/// ipptool sending the same PDF as Print-Job to a private cupsd; events
/// fanned out to 50 Server-Sent Events clients; and the idle agent's memory
/// with the API on beside off. Needs root (the lab).
enum APIBench {
    static let defaultJobs = 300
    static let streamClients = 50
    static let streamJobs = 20

    /// Runs in the lab `LabOptions.enterLab` set up: root, its own loopback;
    /// `kioskprint` is the agent's binary.
    static func run(jobs: Int, kioskprint: String) async -> Never {
        let count = jobs
        await BenchReport.run("api") {
            let lab = try await AgentLab.start(kioskprint: kioskprint)
            defer { lab.stop() }
            let site = lab.site
            let secret = try await site.store.addToken(name: "bench", scopes: [.admin]).secret
            let configuration = try String(contentsOfFile: site.configPath, encoding: .utf8)
            let port = 9180

            progress("idle memory, API off, then on")
            try (configuration + "\n[http]\nlisten = \"off\"\nsocket = \"off\"\n").write(toFile: site.configPath, atomically: true, encoding: .utf8)
            let off = try await idleFootprint(site)
            try (configuration + "\n[http]\nlisten = \"127.0.0.1:\(port)\"\nrate-limit = 10000\n").write(toFile: site.configPath, atomically: true, encoding: .utf8)
            let on = try await idleFootprint(site)

            let notify = try NotifySocket(receiveTimeout: .seconds(1))
            let log = site.folder.appendingPathComponent("api-agent.log").path
            let agent = try await offloaded { try site.start(notify: notify, log: log) }.agent
            defer { _ = site.stop(agent) }
            let pdf = try ReceiptPDF.draw(for: try await site.store.assignments(for: try Role("receipt")).first!.printer.capabilities,
                                          folder: site.folder)
            let pdfBytes = Array(try Data(contentsOf: URL(fileURLWithPath: pdf.path)))
            let receipt = Array(#"{"template":"receipt","role":"receipt","data":\#(try ReceiptSample.json())}"#.utf8)

            progress("\(jobs) template jobs, then \(jobs) PDF jobs, on one connection")
            let templates = try await offloaded { try acceptance(port: port, secret: secret, count: count, type: "application/json", body: receipt, path: "/v1/jobs") }
            let pdfs = try await offloaded { try acceptance(port: port, secret: secret, count: count, type: "application/pdf", body: pdfBytes,
                                                            path: "/v1/jobs?role=receipt") }
            progress("\(jobs) PDF jobs on 4 connections at once")
            let parallel = try await parallelAcceptance(port: port, secret: secret, count: jobs, body: pdfBytes)

            // The jobs accepted above print first: the streams then carry the new jobs' events alone.
            progress("waiting for the \(count * 3) jobs accepted so far to print")
            try await pollUntil("the queue to drain", within: .seconds(900)) { try await site.store.queueDepth() == 0 }
            progress("\(streamClients) event streams, \(streamJobs) jobs")
            let fanOut = try await EventFanOut.measure(port: port, secret: secret, clients: streamClients, jobs: streamJobs, body: receipt)

            progress("ipptool Print-Job to a private cupsd, \(jobs) times")
            let cups = try await CupsAcceptance.measure(pdf: pdf.path, lab: lab.lab, jobs: jobs, folder: site.folder)

            var table = BenchTable()
            table.section("POST /v1/jobs accepted (request sent to answer read), one kept-alive loopback connection, \(jobs) each")
            table.add("30-item receipt as template data, med / p99", Millis.text(templates.median) + " / " + Millis.text(templates.percentile(0.99)),
                      "ipptool Print-Job, the same receipt as PDF, to cupsd \(cups.version)", Millis.text(cups.perJob) + " (mean)",
                      note: "ipptool: a test file of N Print-Jobs, one process, one connection; cupsd does not fsync its spool (SyncOnClose No), the agent commits each job to disk")
            table.add("the receipt as a PDF body, med / p99", Millis.text(pdfs.median) + " / " + Millis.text(pdfs.percentile(0.99)), "", "")
            table.add("accepted jobs a second, one connection (PDF)", rate(jobs, pdfs), "cupsd, one connection", String(format: "%.0f", cups.perSecond))
            table.add("accepted jobs a second, 4 connections (PDF)", String(format: "%.0f", parallel), "", "")
            table.section("GET /v1/events: \(streamClients) clients, \(streamJobs) jobs (\(fanOut.events) events)")
            table.add("events delivered / expected", "\(fanOut.delivered) / \(fanOut.events * streamClients)", "", "")
            table.add("first to last client, per event, med / p99", Millis.text(fanOut.spread.median) + " / " + Millis.text(fanOut.spread.percentile(0.99)), "", "")
            table.section("the idle agent (5 s after READY=1)")
            table.add("RSS with the API on / off", megabytes(on.rssKiB) + " / " + megabytes(off.rssKiB) + " MB",
                      "added by the API", megabytes(on.rssKiB - off.rssKiB) + " MB", note: "target: under 6 MB")
            return .init(blocks: [table.render()], legend: "ms = milliseconds, med = median, p99 = 99th percentile, MB = 2^20 bytes")
        }
    }

    static func megabytes(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }

    static func rate(_ count: Int, _ sample: Sample) -> String {
        let total = sample.sorted.reduce(Duration.zero, +)
        return String(format: "%.0f", Double(count) / Millis.value(total) * 1000)
    }

    /// A fresh agent, idle for 5 s after READY=1, then stopped.
    static func idleFootprint(_ site: AgentSite) async throws -> AgentFootprint {
        let notify = try NotifySocket(receiveTimeout: .seconds(1))
        let log = site.folder.appendingPathComponent("idle-\(UUID().uuidString.prefix(6)).log").path
        let agent = try await offloaded { try site.start(notify: notify, log: log) }.agent
        try await Task.sleep(for: AgentBench.idleWait)  // the idle time measured, not a synchronisation
        let footprint = try AgentFootprint.read(pid: agent.pid)
        _ = try await offloaded { site.stop(agent) }
        return footprint
    }

    /// `count` POSTs one after another on one connection; each must be answered 201.
    static func acceptance(port: Int, secret: String, count: Int, type: String, body: [UInt8], path: String) throws -> Sample {
        let client = try LoopbackHTTP(port: port)
        let headers = ["Authorization": "Bearer \(secret)", "Content-Type": type]
        var timings: [Duration] = []
        for _ in 0..<count {
            let started = ContinuousClock.now
            let answer = try client.send("POST", path, headers: headers, body: body)
            timings.append(ContinuousClock.now - started)
            guard answer.status == 201 else {
                throw BenchError("POST \(path) answered \(answer.status): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
            }
        }
        return Sample(timings)
    }

    /// Jobs a second with 4 connections posting at once.
    static func parallelAcceptance(port: Int, secret: String, count: Int, body: [UInt8]) async throws -> Double {
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    _ = try await offloaded {
                        try acceptance(port: port, secret: secret, count: count / 4, type: "application/pdf", body: body,
                                       path: "/v1/jobs?role=receipt")
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(count / 4 * 4) / Millis.value(ContinuousClock.now - started) * 1000
    }
}
