import Foundation
import Simulator
import Testing

/// What a token holder, or a page in a browser, can make the API do: read
/// only catalog templates, send only bodies within the route's limit, act
/// only on its own jobs, and find every check in force whatever the path's
/// spelling. Each test failed against the agent before its fix (5fbf200).
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(3))) struct APILockdownTests {
        @Test func templatesAreNamedFromTheCatalogOnlyOnEveryRoute() async throws {
            let kiosk = try await APIKiosk.start("Lockdown Templates", token: "till", scope: "print")
            defer { kiosk.printer.stop() }
            let (site, api) = (kiosk.site, kiosk.api)
            let secret = "kioskprint-secret-\(UUID().uuidString)"
            let file = site.folder + "/private.xml"
            try Data("<template><text>\(secret)</text></template>".utf8).write(to: URL(fileURLWithPath: file))
            let encoded = file.replacingOccurrences(of: "/", with: "%2F")

            for path in ["/v1/templates/\(encoded)", "/v1/templates/..%2F..%2F..%2Fetc%2Fpasswd", "/v1/templates/.hidden"] {
                let answer = try await api.request("GET", path)
                #expect(answer.status == 404, "\(path): \(answer.status) \(answer.body)")
                #expect(!answer.body.contains(secret) && !answer.body.contains("root:"), "\(path) read a file: \(answer.body)")
            }
            let job = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json"],
                                            body: #"{"template":"\#(file)","role":"receipt","data":{}}"#)
            #expect(job.status == 422, "\(job.body)")
            #expect((job.object()["detail"] as? String)?.contains("not a template's name") == true, "\(job.body)")
            let preview = try await api.request("POST", "/v1/render", headers: ["Content-Type": "application/json"],
                                                body: #"{"template":"\#(file)","format":"pdf","data":{}}"#)
            #expect(preview.status == 422, "\(preview.body)")
            #expect(!preview.body.contains(secret))
            let page = try await api.request("GET", "/v1/jobs").object()
            #expect((page["jobs"] as? [[String: Any]])?.isEmpty == true, "nothing was queued: \(page)")
            // The catalog's own names still work.
            #expect(try await api.request("GET", "/v1/templates/receipt").status == 200)
            await site.stop(kiosk.agent)
        }

        @Test func bodyLimitsHoldOnEveryRouteAndEverySpellingOfAPath() async throws {
            let kiosk = try await APIKiosk.start("Lockdown Bodies", token: "till", scope: "print", extra: "max-body = \"1KB\"")
            defer { kiosk.printer.stop() }
            let (site, api) = (kiosk.site, kiosk.api)
            let large = #"{"template":"receipt","role":"receipt","data":{"note":""# + String(repeating: "x", count: 4096) + #""}}"#
            for path in ["/v1/jobs/", "//v1/jobs"] {
                let answer = try await api.request("POST", path, headers: ["Content-Type": "application/json"], body: large)
                #expect(answer.status == 404, "\(path) reached a handler: \(answer.status) \(answer.body)")
            }
            // curl itself resolves "/./" to "/v1/jobs", where the limit answers.
            #expect(try await api.request("POST", "/v1/./jobs", headers: ["Content-Type": "application/json"], body: large).status == 413)
            let render = try await api.request("POST", "/v1/render", headers: ["Content-Type": "application/json"], body: large)
            #expect(render.status == 413, "\(render.body)")

            // 200 MB streamed at each route: refused early, the agent's memory flat.
            let before = try Self.residentKB(kiosk.agent.pid)
            for path in ["/v1/render", "/v1/jobs", "//v1/jobs"] {
                let status = try await Self.stream(megabytes: 200, to: api.base + path, token: api.token ?? "")
                #expect(status == "413" || status == "404", "\(path): \(status)")
            }
            let after = try Self.residentKB(kiosk.agent.pid)
            #expect(after - before < 40_000, "the agent grew from \(before) to \(after) KB")
            #expect(try await api.request("GET", "/healthz", withToken: false).status == 200)
            await site.stop(kiosk.agent)
        }

        @Test func aPreviewPastItsBoundIsRefusedBeforeItIsDrawn() async throws {
            let kiosk = try await APIKiosk.start("Lockdown Previews", token: "till", scope: "print")
            defer { kiosk.printer.stop() }
            let (site, api) = (kiosk.site, kiosk.api)
            // 20,000 items: within the data limits, metres of paper.
            var data = try #require(try JSONSerialization.jsonObject(with: Data(try sampleData("receipt").utf8)) as? [String: Any])
            data["items"] = (1...20_000).map { ["name": "Item \($0)", "qty": 1, "total": "1.00"] as [String: Any] }
            let body = try JSONSerialization.data(withJSONObject: ["template": "receipt", "role": "receipt", "format": "png", "data": data])
            let file = site.folder + "/long-receipt.json"
            try body.write(to: URL(fileURLWithPath: file))
            let before = try Self.residentKB(kiosk.agent.pid)
            let refused = try await api.request("POST", "/v1/render", headers: ["Content-Type": "application/json"], bodyFile: file)
            #expect(refused.status == 422, "\(refused.status) \(refused.body.prefix(300))")
            #expect((refused.object()["detail"] as? String)?.contains("more than the 40000000 dots a preview draws") == true)
            let after = try Self.residentKB(kiosk.agent.pid)
            #expect(after - before < 150_000, "the agent grew from \(before) to \(after) KB")
            // 1,000 items fit the dots but not one PNG (cairo's 32,767 rows): refused as such, and drawn as PDF.
            data["items"] = (1...1_000).map { ["name": "Item \($0)", "qty": 1, "total": "1.00"] as [String: Any] }
            for (format, status) in [("png", 422), ("pdf", 200)] {
                let thousand = try JSONSerialization.data(withJSONObject: ["template": "receipt", "role": "receipt", "format": format,
                                                                           "data": data])
                try thousand.write(to: URL(fileURLWithPath: file))
                let answer = try await api.request("POST", "/v1/render", headers: ["Content-Type": "application/json"], bodyFile: file,
                                                   saveTo: site.folder + "/thousand.\(format)")
                #expect(answer.status == status, "\(format): \(answer.status)")
                if status == 422 {
                    let detail = try String(contentsOfFile: site.folder + "/thousand.png", encoding: .utf8)
                    #expect(detail.contains("taller than the 32767 rows a PNG can be"), "\(detail)")
                }
            }
            // A short one is still drawn.
            let short = try await api.request("POST", "/v1/render", headers: ["Content-Type": "application/json"],
                                              body: #"{"template":"receipt","role":"receipt","format":"png","data":\#(try sampleData("receipt"))}"#,
                                              saveTo: site.folder + "/short.png")
            #expect(short.status == 200 && short.headers["content-type"] == "image/png", "\(short.headers)")
            await site.stop(kiosk.agent)
        }

        @Test func aPrintTokenCancelsAndRetriesOnlyTheJobsItSubmitted() async throws {
            let kiosk = try await APIKiosk.start("Lockdown Owners", token: "till-1", scope: "print")
            defer { kiosk.printer.stop() }
            let (site, first) = (kiosk.site, kiosk.api)
            var second = first, admin = first
            second.token = try await site.token("till-2", scope: "print")
            admin.token = try await site.token("office", scope: "admin")

            // A coupon role has no printer: the job waits, so it can be canceled and sent again.
            let posted = try await first.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json"],
                                                 body: #"{"template":"receipt","role":"coupon","data":\#(try sampleData("receipt"))}"#)
            #expect(posted.status == 201, "\(posted.body)")
            let id = try #require(posted.object()["id"] as? Int)
            let refused = try await second.request("POST", "/v1/jobs/\(id)/cancel")
            #expect(refused.status == 403, "\(refused.body)")
            #expect((refused.object()["detail"] as? String)?.contains("only the jobs it submitted") == true)
            // Still on its way (queued, or waiting for a printer the role does not have yet): not canceled.
            let kept = try await first.request("GET", "/v1/jobs/\(id)").object()["state"] as? String
            #expect(kept == "queued" || kept == "waiting", "\(kept ?? "no state")")
            #expect(try await first.request("POST", "/v1/jobs/\(id)/cancel").status == 200)
            #expect(try await second.request("POST", "/v1/jobs/\(id)/retry").status == 403)
            #expect(try await first.request("POST", "/v1/jobs/\(id)/retry").status == 200)
            #expect(try await admin.request("POST", "/v1/jobs/\(id)/cancel").status == 200)

            // The status page's buttons are an administrator's, however the path is written.
            for path in ["/ui/jobs/\(id)/retry", "//ui/jobs/\(id)/retry", "/ui//jobs/\(id)/retry"] {
                let answer = try await second.request("POST", path)
                #expect(answer.status == 403 || answer.status == 404, "\(path): \(answer.status)")
            }
            #expect(try await first.request("GET", "/v1/jobs/\(id)").object()["state"] as? String == "canceled")
            await site.stop(kiosk.agent)
        }

        @Test func originsHostsNoticesAndHeaders() async throws {
            let kiosk = try await APIKiosk.start("Lockdown Headers", token: "office", scope: "admin",
                                                 extra: #"allowed-origins = ["HTTPS://POS.example.com:443/"]"#)
            defer { kiosk.printer.stop() }
            let (site, api) = (kiosk.site, kiosk.api)
            let port = try #require(api.base.split(separator: ":").last.map(String.init))

            let allowed = try await api.request("GET", "/v1/jobs", headers: ["Origin": "https://pos.example.com"])
            #expect(allowed.status == 200, "an allowed origin, spelled another way: \(allowed.body)")
            #expect(allowed.headers["access-control-expose-headers"]?.contains("retry-after") == true)
            #expect(allowed.headers["vary"] == "Origin")
            let refused = try await api.request("GET", "/v1/jobs", headers: ["Origin": "https://evil.example"])
            #expect(refused.status == 403 && refused.headers["vary"] == "Origin", "\(refused.headers)")
            #expect(try await api.request("GET", "/healthz", withToken: false).headers["vary"] == "Origin")

            // A page that rebinds its DNS name to 127.0.0.1 sends its own name.
            let rebound = try await api.request("GET", "/v1/jobs", headers: ["Host": "evil.example:\(port)"])
            #expect(rebound.status == 421, "\(rebound.status) \(rebound.body)")
            #expect(try await api.request("GET", "/v1/jobs", headers: ["Host": "localhost:\(port)"]).status == 200)

            let longKey = String(repeating: "k", count: 201)
            let keyed = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json", "Idempotency-Key": longKey],
                                              body: #"{"template":"receipt","role":"receipt","data":\#(try sampleData("receipt"))}"#)
            #expect(keyed.status == 400 && keyed.object()["field"] as? String == "Idempotency-Key", "\(keyed.body)")

            // The page shows only notices the agent wrote, and is never framed.
            let page = try await api.request("GET", "/?done=Call%20555-0100%20for%20a%20refund")
            #expect(page.status == 200 && !page.body.contains("555-0100"), "a notice from a link: \(page.body.prefix(400))")
            #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
            let pressed = try await api.request("POST", "/ui/roles/receipt/test-page")
            let location = try #require(pressed.headers["location"], "\(pressed.status)")
            let after = try await api.request("GET", location)
            #expect(after.body.contains("Test page queued as job"), "the agent's own notice is shown")
            await site.stop(kiosk.agent)
        }

        /// The resident memory of process `pid`, in KB; 0 under AddressSanitizer,
        /// whose quarantine keeps freed memory resident, so that growth reads as none.
        static func residentKB(_ pid: pid_t) throws -> Int {
            guard !Sanitizers.addressSanitizerLinked else { return 0 }
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        }

        /// Streams `megabytes` of a chunked JSON body to `url` with curl; returns the status it got ("000": none).
        static func stream(megabytes: Int, to url: String, token: String) async throws -> String {
            let script = "head -c \(megabytes)000000 /dev/zero | curl -s -o /dev/null -w '%{http_code}' --max-time 60 -X POST -T - "
                + "-H 'Content-Type: application/json' -H 'Authorization: Bearer \(token)' '\(url)'"
            let finished = try await offloaded { try Subprocess.run("sh", ["-c", script], limit: .seconds(70)) }
            return finished.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
