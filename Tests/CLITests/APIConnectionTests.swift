import Foundation
import Glibc
import Simulator
import Testing

/// What clients that hold on can do to the API: event streams of a revoked
/// token, slow bodies on every connection, settings changed under a running
/// agent, and TLS as a server of 2026 offers it. Each test failed against the
/// agent before its fix (5fbf200).
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(4))) struct APIConnectionTests {
        @Test func aRevokedTokensStreamsEndAndATokenHoldsAtMostFour() async throws {
            let kiosk = try await APIKiosk.start("Streams Revoked", token: "screen", scope: "read")
            defer { kiosk.printer.stop() }
            let (site, api) = (kiosk.site, kiosk.api)
            var streams: [Spawned] = []
            defer { streams.forEach { $0.stop() } }
            for index in 1...4 {
                let file = site.folder + "/stream-\(index).txt"
                streams.append(try Spawned.start("curl", ["-s", "-N", "-D", "-", "-H", "Authorization: Bearer \(api.token ?? "")",
                                                          api.base + "/v1/events"], output: file))
                try await pollUntil("stream \(index) to be answered", within: .seconds(10)) {
                    ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("200")
                }
            }
            let fifth = try await api.request("GET", "/v1/events")
            #expect(fifth.status == 429, "\(fifth.status) \(fifth.body)")
            #expect((fifth.object()["detail"] as? String)?.contains("event streams open") == true)

            let revoked = try await site.runner.run(["tokens", "revoke", "screen"])
            #expect(revoked.status == 0, "\(revoked.errors)")
            for (index, stream) in streams.enumerated() {
                #expect(await stream.exited(within: .seconds(10)) != nil, "stream \(index + 1) still open after its token was revoked")
            }
            await site.stop(kiosk.agent)
        }

        @Test func slowBodiesOnEveryConnectionLeaveHealthAndARealTillServed() async throws {
            let kiosk = try await APIKiosk.start("Slow Clients", token: "till", scope: "print")
            defer { kiosk.printer.stop() }
            let (site, api) = (kiosk.site, kiosk.api)
            let port = try #require(Int(api.base.split(separator: ":").last ?? ""))
            // 300 clients, more than the 256 connections a listener takes, each sending one byte of a 1,000-byte body.
            var held: [HeldConnection] = []
            defer { held.forEach { $0.close() } }
            for _ in 1...300 {
                let connection = try HeldConnection(port: port)
                connection.send("POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
                held.append(connection)
            }
            #expect(try await api.request("GET", "/healthz", withToken: false).status == 200)
            let sale = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json"],
                                             body: #"{"template":"receipt","role":"receipt","data":\#(try sampleData("receipt"))}"#)
            #expect(sale.status == 201, "\(sale.status) \(sale.body)")
            // Every slow client was answered (401: it had no token) and its connection closed, unread.
            for connection in held.prefix(20) {
                #expect(connection.readToEnd(within: .seconds(10)).hasPrefix("HTTP/1.1 401"))
            }
            await site.stop(kiosk.agent)
        }

        @Test func aReloadAppliesNewListenersOriginsAndLimits() async throws {
            let kiosk = try await APIKiosk.start("HTTP Reload", token: "till", scope: "print", extra: "max-body = \"1KB\"")
            defer { kiosk.printer.stop() }
            let (site, old) = (kiosk.site, kiosk.api)
            let body = #"{"template":"receipt","role":"receipt","name":"Sale 7","data":\#(try sampleData("receipt"))}"#
            #expect(body.utf8.count > 1024 && body.utf8.count < 8 * 1024)
            #expect(try await old.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json"], body: body).status == 413)

            let port = try Loopback.freePort()
            try site.writeConfiguration("""
                [http]
                listen = "127.0.0.1:\(port)"
                max-body = "8KB"
                allowed-origins = ["https://pos.example.com"]
                [spooler]
                look-every = "1h"
                """)
            kiosk.agent.signal(SIGHUP)
            var new = old
            new.base = "http://127.0.0.1:\(port)"
            do {
                try await pollUntil("the API on its new port", within: .seconds(30)) {
                    (try? await new.request("GET", "/healthz", withToken: false, maxSeconds: 3))?.status == 200
                }
            } catch {
                Issue.record("\(error) The agent's log ends:\n\(site.logText.suffix(4000))")
                return
            }
            await #expect(throws: APIClientError.self, "the old port is closed") {
                try await old.request("GET", "/healthz", withToken: false)
            }
            let posted = try await new.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json",
                                                                            "Origin": "https://pos.example.com"], body: body)
            #expect(posted.status == 201, "the new limit and origin: \(posted.status) \(posted.body)")
            #expect(posted.headers["access-control-allow-origin"] == "https://pos.example.com")
            await site.stop(kiosk.agent)
        }

        @Test func tlsTwelveAtLeastAPrivateKeyAndTheStatusPageButtonsOverHTTPS() async throws {
            let lab = try await PrinterLab.shared()
            let site = try AgentHarness(lab: lab)
            let (certificate, key) = try await site.selfSignedCertificate()

            // A key every user may read is refused, with what to do.
            chmod(key, 0o644)
            var api = try site.serveAPI(extra: "tls-certificate = \"\(certificate)\"\ntls-key = \"\(key)\"")
            var agent = try await site.start()
            try await pollUntil("the refusal of the key", within: .seconds(10)) { site.logText.contains("can be read or written by every user") }
            #expect(site.logText.contains("chmod 640 \(key)"))
            await site.stop(agent)

            chmod(key, 0o600)
            api.token = try await site.token("office", scope: "admin")
            agent = try await site.start()
            let url = api.base.replacingOccurrences(of: "http://127.0.0.1", with: "https://localhost")
            for (version, accepted) in [("1.0", false), ("1.1", false), ("1.2", true), ("1.3", true)] {
                let handshake = try await offloaded {
                    try Subprocess.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate,
                                                "--tlsv\(version)", "--tls-max", version, "--ciphers", "DEFAULT@SECLEVEL=0",
                                                url + "/healthz"], limit: .seconds(30))
                }
                #expect((handshake.output == "200") == accepted, "TLS \(version): \(handshake.output) \(handshake.errors)")
            }
            // The page's own buttons post from its https origin.
            var secure = api
            secure.base = url
            secure.caFile = certificate
            let pressed = try await secure.request("POST", "/ui/roles/receipt/test-page", headers: ["Origin": url])
            #expect(pressed.status == 303, "\(pressed.status) \(pressed.body)")

            // A certificate renewed in place is served after a reload.
            let old = try String(contentsOfFile: certificate, encoding: .utf8)
            _ = try await site.selfSignedCertificate()
            chmod(key, 0o600)
            let renewed = try String(contentsOfFile: certificate, encoding: .utf8)
            #expect(renewed != old)
            agent.signal(SIGHUP)
            // Each attempt is bounded on its own: one connection caught by the old
            // listener as it stops must not use up the whole wait.
            do {
                try await pollUntil("the renewed certificate to be served", within: .seconds(30)) {
                    (try? await secure.request("GET", "/healthz", withToken: false, maxSeconds: 3))?.status == 200
                }
            } catch {
                Issue.record("\(error) The agent's log ends:\n\(site.logText.suffix(4000))")
            }
            await site.stop(agent)
        }
    }
}

/// A TCP connection to a loopback port held open by the test, as a slow client holds one.
final class HeldConnection: Sendable {
    let descriptor: Int32

    init(port: Int) throws {
        guard let connected = Loopback.connect(port: port) else {
            throw APIClientError(message: "nothing accepts connections on 127.0.0.1:\(port)")
        }
        descriptor = connected
    }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    /// What the server sent until it closed the connection, or until `limit` passed.
    func readToEnd(within limit: Duration) -> String {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + limit
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(1, (deadline - ContinuousClock.now).components.seconds * 1000))
            guard poll(&poller, 1, left) > 0 else { break }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer.prefix(count)
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() { Glibc.close(descriptor) }
}
