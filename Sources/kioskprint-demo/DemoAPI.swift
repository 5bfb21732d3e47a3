import CommandLineOutput
import Foundation
import Simulator
import Store

/// The demo's point-of-sale application: a receipt posted to the agent's
/// HTTP API with curl (as a POS that cannot write files would), the events
/// the agent streamed about it, and the status page in a phone-sized
/// screenshot from headless Chromium. Each step is skipped, with a line
/// saying why, when curl or Chromium is not installed.
struct DemoAPI {
    /// `http://127.0.0.1:PORT`, nil when the demo cannot use the API.
    let base: String?
    let secret: String
    let folder: String
    /// curl reading `/v1/events` into `eventsFile` while the demo runs.
    let listener: Spawned?
    var eventsFile: String { folder + "/events.txt" }

    static func start(agent: DemoAgentProcess, store: KioskStore, folder: String) async throws -> DemoAPI {
        let secret = try await store.addToken(name: "demo-pos", scopes: [.admin]).secret
        let marker = "HTTP API listening on http://"
        guard let line = agent.logText.split(separator: "\n").first(where: { $0.contains(marker) }),
              let range = line.range(of: marker) else {
            print("\nThe agent's HTTP API is not listening (see its log); the demo skips it.")
            return DemoAPI(base: nil, secret: secret, folder: folder, listener: nil)
        }
        let base = "http://" + line[range.upperBound...].trimmingCharacters(in: .whitespaces)
        guard (try? ProgramPath.find("curl")) != nil else {
            print("\ncurl is not installed, so the demo does not show the HTTP API (scripts/install-deps.sh installs it).")
            return DemoAPI(base: nil, secret: secret, folder: folder, listener: nil)
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let listener = try Spawned.start("curl", ["-s", "-N", "-H", "Authorization: Bearer \(secret)", base + "/v1/events"],
                                         output: folder + "/events.txt")
        return DemoAPI(base: base, secret: secret, folder: folder, listener: listener)
    }

    /// Posts the sample receipt for the role receipt; true if the agent queued it.
    func postReceipt(data: String) async throws -> Bool {
        guard let base else { return false }
        let body = folder + "/sale-4711.json"
        try Data(#"{"template":"receipt","role":"receipt","name":"Sale 4711 (POS)","data":\#(data)}"#.utf8).write(to: URL(fileURLWithPath: body))
        print("\nA POS posts a receipt to the agent's HTTP API (token made with `kioskprint tokens add demo-pos --scope admin`):")
        print("$ curl -s -H 'Authorization: Bearer kp_...' -H 'Content-Type: application/json' -H 'Idempotency-Key: sale-4711' \\")
        print("       -d @sale-4711.json \(base)/v1/jobs")
        let answer = try await curl(["-s", "-w", "\\nHTTP %{http_code}", "-H", "Content-Type: application/json",
                                     "-H", "Idempotency-Key: sale-4711", "--data-binary", "@" + body, base + "/v1/jobs"])
        print(answer.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        return answer.hasSuffix("HTTP 201")
    }

    /// After the jobs have ended: the events the agent streamed, and the status page.
    func showAfterwards(previews: String) async throws {
        guard let base, let listener else { return }
        // The job ended in the database a moment before its last event reaches
        // curl's file: let the stream catch up (bounded) before stopping it.
        func posEvents() -> [String] {
            ((try? String(contentsOfFile: eventsFile, encoding: .utf8)) ?? "").components(separatedBy: "\n\n")
                .filter { $0.contains("Sale 4711 (POS)") }
        }
        _ = await pollUntil(within: .seconds(5)) { posEvents().contains { $0.contains(#""state":"completed""#) } }
        listener.stop()
        let events = posEvents()
        print("\n$ curl -N -H 'Authorization: Bearer kp_...' \(base)/v1/events   (what it streamed about the POS's job)")
        for event in events {
            let name = event.split(separator: "\n").first { $0.hasPrefix("event: ") }?.dropFirst(7) ?? "?"
            let state = event.range(of: #""state":"[a-z-]+""#, options: .regularExpression).map { String(event[$0]) } ?? ""
            print("  event: \(name)  \(state)")
        }
        guard events.contains(where: { $0.contains(#""state":"completed""#) }) else {
            throw demoFailure("the agent's event stream did not report the POS's job completed.")
        }
        guard HeadlessChromium.isInstalled else {
            print("\nChromium is not installed, so the demo takes no screenshot of the status page at \(base)/.")
            return
        }
        try FileManager.default.createDirectory(atPath: previews, withIntermediateDirectories: true)
        let screenshot = previews + "/status-page.png"
        let host = base.replacingOccurrences(of: "http://", with: "")
        try await HeadlessChromium(profile: folder + "/chromium").screenshot(of: "http://demo:\(secret)@\(host)/", to: screenshot)
        print("\nThe status page at \(base)/ (what a technician's phone shows): \(screenshot)")
    }

    private func curl(_ arguments: [String]) async throws -> String {
        let all = ["-H", "Authorization: Bearer \(secret)"] + arguments
        let run = try await offloaded { try Subprocess.run("curl", all, limit: .seconds(30)) }
        return run.output
    }
}
