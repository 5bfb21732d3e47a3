import Foundation
import Simulator
import Testing

/// `GET /metrics` of a running agent, scraped with curl as Prometheus would,
/// and the shipped alert rules checked by promtool against the names and
/// labels that scrape really carried: a renamed metric or label breaks them.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(3))) struct MetricsTests {
        static let rulesFile = kioskConfigFolder + "/monitoring/kioskprint-alerts.yml"

        @Test func aRunningAgentsMetricsCountWhatItDidAndTheShippedAlertsFireOnThem() async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("Metrics Receipt \(try Loopback.freePort())")))
            defer { printer.stop() }
            let site = try AgentHarness(lab: lab)
            let pos = try site.makeFolder("pos")
            let rawPort = try Loopback.freePort()
            var scraper = try site.serveAPI(folders: """
                [[folder]]
                path = "pos"
                role = "receipt"
                template = "receipt"
                [role.receipt]
                raw-listen = "127.0.0.1:\(rawPort)"
                """)
            try await site.assign(printer, to: "receipt")
            scraper.token = try await site.token("prometheus", scope: "read")
            var till = scraper
            till.token = try await site.token("till", scope: "print")
            let agent = try await site.start()

            let posted = try await till.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json"],
                                                body: try HTTPAPITests.receiptBody("Sale 1"))
            let id = try #require(posted.object()["id"] as? Int, "\(posted.body)")
            try site.drop("{ not json", as: "broken.json", into: pos)
            // ESC/POS for a role whose printer speaks only IPP: closed unread, counted as refused.
            let stray = try RawClient(port: rawPort)
            try? await stray.send([0x1B, 0x40] + Array("no ESC/POS printer here\n".utf8))
            _ = try? await stray.readUntilClosed()
            try await pollUntil("job \(id) to complete", within: .seconds(30)) {
                try await till.request("GET", "/v1/jobs/\(id)").object()["state"] as? String == "completed"
            }
            try await pollUntil("broken.json to reach failed/", within: .seconds(10)) {
                site.files(in: pos + "/failed").contains("broken.json")
            }
            // The job's state is written before the spooler reports it: wait for the report to be counted.
            var scraped = try await scraper.request("GET", "/metrics")
            try await pollUntil("the finished job to be counted", within: .seconds(10)) {
                scraped = try await scraper.request("GET", "/metrics")
                return Exposition(scraped.body).samples("kioskprint_jobs_finished_total", ["state": "completed"]).first?.value == 1
            }

            #expect(scraped.status == 200, "\(scraped.body)")
            #expect(scraped.headers["content-type"]?.hasPrefix("text/plain") == true)
            let metrics = Exposition(scraped.body)
            let receipt = ["role": "receipt"]
            // The role's one printer, under the name it gives itself.
            let saved = metrics.samples("kioskprint_printer_up", receipt)
            #expect(saved.count == 1 && saved.first?.labels["printer"]?.contains(printer.name) == true, "\(saved)")
            let ours = ["role": "receipt", "printer": saved.first?.labels["printer"] ?? printer.name, "rank": "primary"]
            #expect(metrics.value("kioskprint_jobs_finished_total", ["role": "receipt", "state": "completed"]) == 1)
            #expect(metrics.value("kioskprint_jobs_finished_total", ["role": "receipt", "state": "failed"]) == 0)
            #expect(metrics.value("kioskprint_queue_depth", receipt) == 0)
            #expect(metrics.value("kioskprint_printer_up", ours) == 1)
            #expect(metrics.value("kioskprint_paper_low", ours) == 0)
            #expect(metrics.samples("kioskprint_printer_state", ours).count == 4)
            #expect(metrics.samples("kioskprint_printer_state", ours).filter { $0.value == 1 }.map { $0.labels["state"] } == ["idle"])
            #expect(metrics.value("kioskprint_failovers_total", receipt) == 0)
            #expect(metrics.value("kioskprint_refused_files_total", ["folder": pos]) == 1)
            #expect(metrics.value("kioskprint_raw_jobs_total", ["role": "receipt", "outcome": "refused"]) == 1)
            #expect(metrics.value("kioskprint_raw_jobs_total", ["role": "receipt", "outcome": "queued"]) == 0)
            #expect(metrics.value("kioskprint_job_latency_seconds_count", receipt) == 1)
            let latency = try #require(metrics.value("kioskprint_job_latency_seconds_sum", receipt))
            #expect(latency > 0 && latency < 30)
            #expect(metrics.value("kioskprint_job_latency_seconds_bucket", ["role": "receipt", "le": "+Inf"]) == 1)
            #expect((metrics.value("kioskprint_render_duration_seconds_count", receipt) ?? 0) >= 1)
            let version = try await site.runner.run(["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!version.isEmpty)
            #expect(metrics.value("kioskprint_build_info", ["version": version]) == 1)

            // Like every GET, it needs a token.
            let anonymous = try await scraper.request("GET", "/metrics", withToken: false)
            #expect(anonymous.status == 401)
            #expect(!anonymous.body.contains("kioskprint_"))
            // The contract lists it.
            let contract = try await scraper.request("GET", "/v1/openapi.json", withToken: false)
            #expect(contract.body.contains("\"getMetrics\""))

            // The shipped dashboard and rules ask only for series this agent exported.
            let exported = Set(metrics.samples.map(\.name))
            for shipped in ["kioskprint-dashboard.json", "kioskprint-alerts.yml"] {
                let text = try String(contentsOfFile: kioskConfigFolder + "/monitoring/" + shipped, encoding: .utf8)
                let asked = Set(text.matches(of: /kioskprint_[a-z_]+/).map { String($0.output) })
                #expect(!asked.isEmpty && asked.isSubset(of: exported), "\(shipped) asks for \(asked.subtracting(exported))")
            }

            try Self.promtoolLintPasses(scraped.body)
            try Self.shippedRulesFireOnTheseSeries(metrics, printer: ours)
            await site.stop(agent)
        }

        /// `promtool check metrics`: the exposition parses and passes Prometheus's lint (HELP, names, units).
        static func promtoolLintPasses(_ exposition: String) throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-metrics-\(UUID().uuidString).txt").path
            try Data(exposition.utf8).write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            let checked = try Subprocess.run("sh", ["-c", "promtool check metrics < \"$0\"", file])
            #expect(checked.status == 0 && checked.output.isEmpty && checked.errors.isEmpty,
                    "promtool check metrics: \(checked.output)\(checked.errors)\n\(exposition)")
        }

        /// `promtool check rules` on the shipped file, and `promtool test rules`
        /// with series named and labeled as `metrics` were: each alert fires
        /// when it should and not when it should not.
        static func shippedRulesFireOnTheseSeries(_ metrics: Exposition, printer: [String: String]) throws {
            let checked = try Subprocess.run("promtool", ["check", "rules", rulesFile])
            #expect(checked.status == 0, "\(checked.output)\(checked.errors)")
            #expect(checked.output.contains("5 rules found"), "\(checked.output)")

            let role = ["role": printer["role"] ?? ""]
            let up = try #require(metrics.samples("kioskprint_printer_up", printer).first)
            let paperLow = try #require(metrics.samples("kioskprint_paper_low", printer).first)
            let depth = try #require(metrics.samples("kioskprint_queue_depth", role).first)
            let completed = try #require(metrics.samples("kioskprint_jobs_finished_total", role.merging(["state": "completed"]) { $1 }).first)
            let failed = try #require(metrics.samples("kioskprint_jobs_finished_total", role.merging(["state": "failed"]) { $1 }).first)
            let rawRefused = try #require(metrics.samples("kioskprint_raw_jobs_total", role.merging(["outcome": "refused"]) { $1 }).first)
            let rules = AlertRuleTest(rulesFile: rulesFile)
            let perRole: Set<String> = ["instance", "job", "role"]

            // Trouble: the printer goes down at 2m, its paper runs low at 2m, a job fails at 3m, and
            // three jobs wait while none completes.
            let trouble = try rules.group([
                .init(sample: up, values: "1 1 0x20"),
                .init(sample: paperLow, values: "0 0 1x20"),
                .init(sample: depth, values: "3x20"),
                .init(sample: completed, values: "1x20"),
                .init(sample: failed, values: "0 0 0 1x20"),
                .init(sample: rawRefused, values: "0 0 0 1x20"),
            ], [
                .init(alert: "KioskPrintPrinterDown", at: "3m", firing: []),
                .init(alert: "KioskPrintPrinterDown", at: "10m", firing: [rules.alertLabels(up, severity: "critical")]),
                .init(alert: "KioskPrintPaperLow", at: "1m", firing: []),
                .init(alert: "KioskPrintPaperLow", at: "10m", firing: [rules.alertLabels(paperLow, severity: "warning")]),
                .init(alert: "KioskPrintJobsFailing", at: "2m", firing: []),
                .init(alert: "KioskPrintJobsFailing", at: "10m", firing: [rules.alertLabels(failed, keeping: perRole, severity: "warning")]),
                .init(alert: "KioskPrintRawJobsRefused", at: "2m", firing: []),
                .init(alert: "KioskPrintRawJobsRefused", at: "10m", firing: [rules.alertLabels(rawRefused, keeping: perRole, severity: "warning")]),
                .init(alert: "KioskPrintQueueStuck", at: "3m", firing: []),
                .init(alert: "KioskPrintQueueStuck", at: "12m", firing: [rules.alertLabels(depth, keeping: perRole, severity: "critical")],
                      value: "3"),
            ])
            // A busy, healthy till: jobs come and go, one completes every minute, nothing fails.
            let healthy = try rules.group([
                .init(sample: up, values: "1x20"),
                .init(sample: paperLow, values: "0x20"),
                .init(sample: depth, values: "3x20"),
                .init(sample: completed, values: "1+1x20"),
                .init(sample: failed, values: "0x20"),
                .init(sample: rawRefused, values: "0x20"),
            ], [
                .init(alert: "KioskPrintPrinterDown", at: "15m", firing: []),
                .init(alert: "KioskPrintPaperLow", at: "15m", firing: []),
                .init(alert: "KioskPrintJobsFailing", at: "15m", firing: []),
                .init(alert: "KioskPrintQueueStuck", at: "15m", firing: []),
                .init(alert: "KioskPrintRawJobsRefused", at: "15m", firing: []),
            ])
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-rules-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let testFile = folder + "/kioskprint-alerts.test.yml"
            try Data(rules.file([trouble, healthy]).utf8).write(to: URL(fileURLWithPath: testFile))
            let tested = try Subprocess.run("promtool", ["test", "rules", testFile])
            #expect(tested.status == 0, "promtool test rules:\n\(tested.output)\(tested.errors)\n\(rules.file([trouble, healthy]))")
            #expect(tested.output.contains("SUCCESS"), "\(tested.output)")
        }
    }
}
