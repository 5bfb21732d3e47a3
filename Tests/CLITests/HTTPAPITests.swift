import Foundation
import Simulator
import Testing

/// The HTTP API of a running agent (`kioskprint run`), called with curl as a
/// POS would: jobs printed on a real IPP printer, idempotent retries (also
/// across a restart), and every bad request answered with a problem and
/// nothing queued.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(3))) struct HTTPAPITests {
        static func receiptBody(_ name: String) throws -> String {
            #"{"template":"receipt","role":"receipt","name":"\#(name)","data":\#(try sampleData("receipt"))}"#
        }

        @Test func aJobPostedWithCurlPrintsOnceEvenWhenRetriedAcrossARestart() async throws {
            let kiosk = try await APIKiosk.start("API Receipt", token: "till-1", scope: "print")
            defer { kiosk.printer.stop() }
            let (printer, site, api) = (kiosk.printer, kiosk.site, kiosk.api)
            var agent = kiosk.agent

            let body = try Self.receiptBody("Sale 4711")
            let posted = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json",
                                                                           "Idempotency-Key": "sale-4711"], body: body)
            #expect(posted.status == 201, "\(posted.body)")
            let id = try #require(posted.object()["id"] as? Int)
            #expect(posted.headers["location"] == "/v1/jobs/\(id)")

            try await pollUntil("job \(id) to complete", within: .seconds(30)) {
                try await api.request("GET", "/v1/jobs/\(id)").object()["state"] as? String == "completed"
            }
            #expect(try await printer.receivedJobs(atLeast: 1).count == 1)

            // The POS never saw the answer and sends it again, after the agent restarted.
            await site.stop(agent)
            agent = try await site.start()
            let retried = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json",
                                                                            "Idempotency-Key": "sale-4711"], body: body)
            #expect(retried.status == 200, "\(retried.body)")
            #expect(retried.object()["id"] as? Int == id)
            #expect(retried.object()["state"] as? String == "completed")

            // The same key for another sale is a mistake, not a retry.
            let reused = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json",
                                                                           "Idempotency-Key": "sale-4711"],
                                               body: try Self.receiptBody("Sale 4712"))
            #expect(reused.status == 422)
            #expect(reused.headers["content-type"] == "application/problem+json")
            #expect((reused.object()["detail"] as? String)?.contains("job \(id)") == true, "\(reused.body)")

            let page = try await api.request("GET", "/v1/jobs?limit=10").object()
            #expect((page["jobs"] as? [[String: Any]])?.count == 1, "one job in all: \(page)")
            #expect(try printer.receivedJobs().count == 1)
            await site.stop(agent)
        }

        @Test func badRequestsAreAnsweredWithProblemsAndNothingIsQueued() async throws {
            let lab = try await PrinterLab.shared()
            let site = try AgentHarness(lab: lab)
            var api = try site.serveAPI(extra: "max-body = \"64KB\"")
            let reader = try await site.token("screen", scope: "read")
            api.token = try await site.token("till", scope: "print")
            let agent = try await site.start()
            let json = ["Content-Type": "application/json"]

            let anonymous = try await api.request("GET", "/v1/jobs", withToken: false)
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect((anonymous.object()["detail"] as? String)?.contains("kioskprint tokens add") == true)

            var readOnly = api
            readOnly.token = reader
            let forbidden = try await readOnly.request("POST", "/v1/jobs", headers: json, body: try Self.receiptBody("x"))
            #expect(forbidden.status == 403)
            #expect((forbidden.object()["detail"] as? String)?.contains("needs print") == true, "\(forbidden.body)")
            #expect(try await readOnly.request("GET", "/v1/jobs").status == 200)

            let malformed = try await api.request("POST", "/v1/jobs", headers: json,
                                                  body: "{\n  \"template\": \"receipt\",\n  \"role\": \"receipt\",\n}")
            #expect(malformed.status == 400)
            #expect(malformed.object()["line"] as? Int == 4 && malformed.object()["column"] as? Int == 1, "\(malformed.body)")

            let unknown = try await api.request("POST", "/v1/jobs", headers: json,
                                                body: #"{"template":"no-such","role":"receipt","data":{}}"#)
            #expect(unknown.status == 422)
            #expect((unknown.object()["detail"] as? String)?.contains("no-such") == true, "\(unknown.body)")

            let missingRole = try await api.request("POST", "/v1/jobs", headers: json, body: #"{"template":"receipt"}"#)
            #expect(missingRole.status == 400, "\(missingRole.body)")

            let tooLarge = try await api.request("POST", "/v1/jobs", headers: json,
                                                 body: #"{"template":"receipt","role":"receipt","data":{"x":""# + String(repeating: "a", count: 70_000) + #""}}"#)
            #expect(tooLarge.status == 413, "\(tooLarge.body)")

            let pdfWithoutRole = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/pdf"], body: "%PDF-1.4")
            #expect(pdfWithoutRole.status == 400)
            #expect(pdfWithoutRole.object()["field"] as? String == "role")

            let badLimit = try await api.request("GET", "/v1/jobs?limit=5000")
            #expect(badLimit.status == 400)

            #expect(try await api.request("GET", "/v1/jobs/999").status == 404)
            let page = try await api.request("GET", "/v1/jobs").object()
            #expect((page["jobs"] as? [[String: Any]])?.isEmpty == true, "nothing was queued: \(page)")
            await site.stop(agent)
        }

        @Test func aTokenInARetryLoopIsSlowedAndOthersAreNot() async throws {
            let lab = try await PrinterLab.shared()
            let site = try AgentHarness(lab: lab)
            var api = try site.serveAPI(extra: "rate-limit = 1")
            let other = try await site.token("screen", scope: "read")
            api.token = try await site.token("till", scope: "read")
            let agent = try await site.start()
            // One a second, two in a burst: six at once cannot all pass.
            var statuses: [Int] = []
            for _ in 1...6 { statuses.append(try await api.request("GET", "/v1/jobs").status) }
            #expect(statuses.prefix(2) == [200, 200] && statuses.contains(429), "\(statuses)")
            let limited = try await api.request("GET", "/v1/jobs")
            #expect(limited.status == 429 && (Int(limited.headers["retry-after"] ?? "") ?? 0) >= 1, "\(limited.headers)")
            #expect((limited.object()["detail"] as? String)?.contains("rate-limit") == true)
            var screen = api
            screen.token = other
            #expect(try await screen.request("GET", "/v1/jobs").status == 200, "another token is not slowed")
            await site.stop(agent)
        }

        @Test func httpsWithTheConfiguredCertificateAndNotInTheClear() async throws {
            let lab = try await PrinterLab.shared()
            let site = try AgentHarness(lab: lab)
            let (certificate, key) = try await site.selfSignedCertificate()
            var api = try site.serveAPI(extra: "tls-certificate = \"\(certificate)\"\ntls-key = \"\(key)\"")
            api.token = try await site.token("till", scope: "read")
            let agent = try await site.start()
            #expect(site.logText.contains("HTTP API listening on https://"))
            var secure = api
            secure.base = api.base.replacingOccurrences(of: "http://127.0.0.1", with: "https://localhost")
            secure.caFile = certificate
            #expect(try await secure.request("GET", "/healthz", withToken: false).body == "ok\n")
            #expect(try await secure.request("GET", "/v1/jobs").status == 200)
            await #expect(throws: APIClientError.self, "plain HTTP is not answered on the TLS port") {
                try await api.request("GET", "/healthz", withToken: false)
            }
            await site.stop(agent)
        }

        @Test func printersTemplatesFilesCancelAndRetry() async throws {
            let kiosk = try await APIKiosk.start("API Receipt", token: "till", scope: "print")
            defer { kiosk.printer.stop() }
            let (printer, site, api) = (kiosk.printer, kiosk.site, kiosk.api)
            let agent = kiosk.agent

            let roles = try await api.request("GET", "/v1/printers").array()
            let receipt = try #require(roles.first { $0["role"] as? String == "receipt" })
            let saved = try #require((receipt["printers"] as? [[String: Any]])?.first)
            #expect(saved["uri"] as? String == printer.uri && saved["primary"] as? Bool == true)
            #expect((saved["mediaReady"] as? [String])?.isEmpty == false, "\(saved)")

            // The receipt as the role's printer would print it, drawn without printing.
            let pngFile = site.folder + "/preview.png"
            let preview = try await api.request("POST", "/v1/render", headers: ["Content-Type": "application/json"],
                                                body: #"{"template":"receipt","role":"receipt","data":"# + (try sampleData("receipt")) + "}",
                                                saveTo: pngFile)
            #expect(preview.status == 200 && preview.headers["content-type"] == "image/png", "\(preview.headers)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: pngFile)).starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let cuts = preview.headers["cut-lengths"]?.removingPercentEncoding ?? ""
            #expect(cuts.split(separator: ",").compactMap { Int($0) }.count == 1, "one receipt, one cut: \(preview.headers)")
            let pdfFile = site.folder + "/preview.pdf"
            let pdf = try await api.request("POST", "/v1/render", headers: ["Content-Type": "application/json"],
                                            body: #"{"template":"receipt","format":"pdf","data":"# + (try sampleData("receipt")) + "}",
                                            saveTo: pdfFile)
            #expect(pdf.status == 200 && pdf.headers["content-type"] == "application/pdf", "\(pdf.headers)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: pdfFile)).starts(with: Array("%PDF".utf8)))
            let noPrinter = try await api.request("POST", "/v1/render", headers: ["Content-Type": "application/json"],
                                                  body: #"{"template":"receipt","role":"coupon"}"#)
            #expect(noPrinter.status == 422 && noPrinter.object()["field"] as? String == "role", "\(noPrinter.body)")
            let nothingQueued = try await api.request("GET", "/v1/jobs").object()
            #expect((nothingQueued["jobs"] as? [[String: Any]])?.isEmpty == true)

            let templates = try await api.request("GET", "/v1/templates").array()
            #expect(templates.contains { $0["name"] as? String == "receipt" && $0["builtIn"] as? Bool == true })
            let detail = try await api.request("GET", "/v1/templates/receipt").object()
            #expect((detail["sampleData"] as? [String: Any])?["items"] != nil)
            #expect(try await api.request("GET", "/v1/templates/no-such").status == 404)

            // A PNG as it is, for the role given in the address.
            let png = site.folder + "/logo.png"
            try DotBitmap(width: 64, rows: Array(repeating: String(repeating: "#.", count: 32), count: 16)).writePNG(to: png)
            let posted = try await api.request("POST", "/v1/jobs?role=receipt&name=Logo", headers: ["Content-Type": "image/png"],
                                               bodyFile: png)
            #expect(posted.status == 201, "\(posted.body)")
            let id = try #require(posted.object()["id"] as? Int)
            #expect(posted.object()["name"] as? String == "Logo")
            try await pollUntil("the PNG job to complete", within: .seconds(30)) {
                try await api.request("GET", "/v1/jobs/\(id)").object()["state"] as? String == "completed"
            }
            #expect(try await api.request("POST", "/v1/jobs/\(id)/cancel").status == 409, "a completed job is not canceled")
            #expect(try await api.request("POST", "/v1/jobs/\(id)/retry").status == 409, "nor sent again")

            // A job for a role no printer holds waits; canceled, it can be sent again.
            let waiting = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json"],
                                                body: #"{"template":"receipt","role":"coupon","data":"# + (try sampleData("receipt")) + "}")
            let waitingID = try #require(waiting.object()["id"] as? Int, "\(waiting.body)")
            let canceled = try await api.request("POST", "/v1/jobs/\(waitingID)/cancel")
            #expect(canceled.status == 200 && canceled.object()["state"] as? String == "canceled", "\(canceled.body)")
            let retried = try await api.request("POST", "/v1/jobs/\(waitingID)/retry")
            #expect(retried.status == 200 && retried.object()["state"] as? String == "queued", "\(retried.body)")
            let queue = try await api.request("GET", "/v1/jobs?state=unfinished&role=coupon").object()
            #expect((queue["jobs"] as? [[String: Any]])?.map { $0["id"] as? Int } == [waitingID], "\(queue)")
            #expect(try printer.receivedJobs().count == 1)
            await site.stop(agent)
        }

        @Test func theUnixSocketTheOpenAPIDocumentAndBrowserOrigins() async throws {
            let lab = try await PrinterLab.shared()
            let site = try AgentHarness(lab: lab)
            var api = try site.serveAPI(extra: #"allowed-origins = ["http://pos.example:3000"]"#)
            api.token = try await site.token("till", scope: "read")
            let agent = try await site.start()

            let socket = (site.database as NSString).deletingLastPathComponent + "/api.sock"
            var info = stat()
            #expect(lstat(socket, &info) == 0 && info.st_mode & 0o777 == 0o660, "the socket is for its owner and group only")
            var local = api
            local.socket = socket
            #expect(try await local.request("GET", "/v1/jobs").status == 200)
            #expect(try await local.request("GET", "/healthz", withToken: false).body == "ok\n")

            let document = try await api.request("GET", "/v1/openapi.json", withToken: false)
            let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/HTTPAPI/openapi.json")
            #expect(document.body == (try String(contentsOf: repository, encoding: .utf8)), "the served contract is the repository's")

            // A browser page on an allowed origin, on a public address: the preflight, then the call.
            let preflight = try await api.request("OPTIONS", "/v1/jobs", headers: [
                "Origin": "http://pos.example:3000", "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Private-Network": "true"], withToken: false)
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "http://pos.example:3000")
            #expect(preflight.headers["access-control-allow-private-network"] == "true")
            #expect(preflight.headers["access-control-allow-headers"]?.contains("idempotency-key") == true)
            let allowed = try await api.request("GET", "/v1/jobs", headers: ["Origin": "http://pos.example:3000"])
            #expect(allowed.status == 200 && allowed.headers["access-control-allow-origin"] == "http://pos.example:3000")

            let stranger = try await api.request("GET", "/v1/jobs", headers: ["Origin": "https://evil.example"])
            #expect(stranger.status == 403)
            #expect((stranger.object()["detail"] as? String)?.contains("allowed-origins") == true)
            #expect(stranger.headers["access-control-allow-origin"] == nil)
            await site.stop(agent)
        }

        @Test func eventsFollowAJobLiveAndAReconnectGetsWhatItMissed() async throws {
            let kiosk = try await APIKiosk.start("API Events", token: "screen", scope: "print")
            defer { kiosk.printer.stop() }
            let (site, api) = (kiosk.site, kiosk.api)
            let agent = kiosk.agent

            // curl as a browser's EventSource would hold the stream open.
            let streamFile = site.folder + "/events.txt"
            let listener = try Spawned.start("curl", ["-s", "-N", "-H", "Authorization: Bearer \(api.token ?? "")",
                                                      api.base + "/v1/events"], output: streamFile)
            defer { listener.stop() }
            let posted = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json"],
                                               body: try Self.receiptBody("Sale 90"))
            let id = try #require(posted.object()["id"] as? Int)
            try await pollUntil("the stream to report job \(id) completed", within: .seconds(30)) {
                Self.events(in: streamFile).contains { $0.name == "job" && $0.data.contains("\"id\":\(id)") && $0.data.contains("\"state\":\"completed\"") }
            }
            let seen = Self.events(in: streamFile)
            #expect(seen.first?.data.contains("\"state\":\"sending\"") == true, "\(seen)")
            #expect(seen.allSatisfy { !$0.id.isEmpty })

            // A client that saw only the first event reconnects and gets the rest, then the stream goes on.
            let resumedFile = site.folder + "/resumed.txt"
            let resumed = try Spawned.start("curl", ["-s", "-N", "-H", "Authorization: Bearer \(api.token ?? "")",
                                                     "-H", "Last-Event-ID: \(try #require(seen.first?.id))",
                                                     api.base + "/v1/events"], output: resumedFile)
            defer { resumed.stop() }
            try await pollUntil("the missed events", within: .seconds(10)) { Self.events(in: resumedFile).count >= seen.count - 1 }
            #expect(Self.events(in: resumedFile).map(\.id) == seen.dropFirst().map(\.id))

            // An id from another run of the agent: a gap, said first.
            let staleFile = site.folder + "/stale.txt"
            let stale = try Spawned.start("curl", ["-s", "-N", "-H", "Authorization: Bearer \(api.token ?? "")",
                                                   "-H", "Last-Event-ID: 0.5", api.base + "/v1/events"], output: staleFile)
            defer { stale.stop() }
            try await pollUntil("the gap event", within: .seconds(10)) { !Self.events(in: staleFile).isEmpty }
            #expect(Self.events(in: staleFile).first?.name == "gap")

            // The agent stops cleanly with streams open: they end, they do not hold it up.
            await site.stop(agent)
            #expect(await listener.exited(within: .seconds(10)) != nil, "the stream ended with the agent")
        }

        /// The events in an SSE stream's text: id, event name and data of each.
        static func events(in file: String) -> [(id: String, name: String, data: String)] {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            return text.components(separatedBy: "\n\n").compactMap { block in
                var id = "", name = "", data = ""
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data += line.dropFirst(6) }
                }
                return name.isEmpty ? nil : (id, name, data)
            }
        }
    }
}
