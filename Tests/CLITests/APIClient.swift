import Foundation
import Simulator
import Testing

/// curl, as a POS or a script would call the agent's HTTP API: an
/// independent HTTP client, so the tests do not share code with the server.
struct APIClient: Sendable {
    /// `http://127.0.0.1:PORT`, or nil to go through `socket`.
    var base: String
    var socket: String?
    var token: String?
    /// The certificate (PEM) an https `base` is checked against.
    var caFile: String?

    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String

        /// The body as a JSON object (a failed expectation, and empty, if it is not one).
        func object(sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
            let parsed = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            #expect(parsed != nil, "not a JSON object: \(body)", sourceLocation: sourceLocation)
            return parsed ?? [:]
        }

        func array() -> [[String: Any]] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]]) ?? []
        }
    }

    /// One request; `body` is sent as given (a file with `bodyFile`).
    /// `saveTo`: a binary answer's body goes to that file (the reply's body is then empty).
    /// `maxSeconds`: curl gives up after that long (a poll's attempt must not outlast the poll).
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
                 bodyFile: String? = nil, withToken: Bool = true, saveTo: String? = nil,
                 maxSeconds: Int = 30) async throws -> Reply {
        var arguments = ["-s", "-S", "-X", method, "-D", "-", "--max-time", "\(maxSeconds)"]
        if let saveTo { arguments += ["-o", saveTo] }
        if let socket { arguments += ["--unix-socket", socket] }
        if let caFile { arguments += ["--cacert", caFile] }
        if withToken, let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let body { arguments += ["--data-binary", body] }
        if let bodyFile { arguments += ["--data-binary", "@" + bodyFile] }
        arguments.append((socket == nil ? base : "http://kioskprint") + path)
        let command = arguments
        let finished = try await offloaded { try Subprocess.run("curl", command, limit: .seconds(40)) }
        guard finished.status == 0 else { throw APIClientError(message: "curl \(arguments.joined(separator: " ")): \(finished.errors)") }
        return Self.parse(finished.output)
    }

    /// Splits curl's `-D -` output: the status line and headers, a blank line, the body.
    static func parse(_ output: String) -> Reply {
        let parts = output.components(separatedBy: "\r\n\r\n")
        let head = parts.first?.components(separatedBy: "\r\n") ?? []
        let status = head.first.flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}

struct APIClientError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension AgentHarness {
    /// Makes an API token with `scope` through the command line; returns its secret.
    func token(_ name: String, scope: String) async throws -> String {
        let added = try await runner.run(["tokens", "add", name, "--scope", scope])
        #expect(added.status == 0, "\(added.output)\(added.errors)")
        let secret = added.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).first { $0.hasPrefix("kp_") }
        return try #require(secret.map(String.init), "no secret in: \(added.output)")
    }

    /// A self-signed certificate for `localhost` and its key, made with openssl in the harness's folder.
    func selfSignedCertificate() async throws -> (certificate: String, key: String) {
        let certificate = folder + "/api.crt", key = folder + "/api.key"
        let made = try await offloaded {
            try Subprocess.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                           "-keyout", key, "-out", certificate, "-subj", "/CN=localhost", "-days", "2",
                                           "-addext", "subjectAltName=DNS:localhost"], limit: .seconds(30))
        }
        #expect(made.status == 0, "\(made.errors)")
        return (certificate, key)
    }

    /// The agent's configuration with the API on a free loopback port; returns the client for it.
    func serveAPI(extra: String = "", folders: String = "") throws -> APIClient {
        let port = try Loopback.freePort()
        try writeConfiguration(folders + """

            [http]
            listen = "127.0.0.1:\(port)"
            \(extra)
            """)
        return APIClient(base: "http://127.0.0.1:\(port)")
    }
}

/// A kiosk for the API's tests: a recording receipt printer under the role
/// `receipt`, an agent serving the API on a free port, and a token. Stop the
/// printer when done (`defer { kiosk.printer.stop() }`); the harness stops its agents.
/// The agent looks for work by itself only every hour, so a job the API
/// queues or sends again prints only if the request woke the spooler (the
/// store's wake file).
struct APIKiosk {
    let printer: RunningPrinter
    let site: AgentHarness
    let api: APIClient
    let agent: Spawned

    static func start(_ label: String, token: String = "till", scope: String = "print", extra: String = "") async throws -> APIKiosk {
        let lab = try await PrinterLab.shared()
        let printer = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("\(label) \(try Loopback.freePort())")))
        do {
            let site = try AgentHarness(lab: lab)
            var api = try site.serveAPI(extra: extra + "\n[spooler]\nlook-every = \"1h\"")
            try await site.assign(printer, to: "receipt")
            api.token = try await site.token(token, scope: scope)
            return APIKiosk(printer: printer, site: site, api: api, agent: try await site.start())
        } catch {
            printer.stop()
            throw error
        }
    }
}
