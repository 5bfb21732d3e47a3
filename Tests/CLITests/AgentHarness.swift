import Foundation
import Simulator
import Synchronization
import Testing

/// The agent's end-to-end suites, run one test at a time: each starts real
/// printers and agents, and together, beside the rest of the suite on two
/// cores, they slowed the timing-sensitive picker and discovery tests.
@Suite(.serialized) enum AgentEndToEnd {}

/// `kioskprint run` as a test starts it: a folder of its own holding the
/// configuration, the database and the watched folders, the built binary
/// in a child process, and its log.
final class AgentHarness: Sendable {
    let folder: String
    let database: String
    let configPath: String
    let log: String
    let runner: CommandRunner
    let environment: [String: String]
    /// Every agent started, so none outlives its test, whatever the test's path.
    private let started = Mutex<[Spawned]>([])

    init(lab: PrinterLab, extraEnvironment: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-agent-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        database = folder + "/state/kioskprint.sqlite"
        configPath = folder + "/kioskprint.toml"
        log = folder + "/agent.log"
        runner = CommandRunner(environment: ["DBUS_SYSTEM_BUS_ADDRESS": lab.busAddress, "KIOSKPRINT_DATABASE": database])
        environment = runner.environment.merging(extraEnvironment) { _, extra in extra }
            .merging(ProcessInfo.processInfo.environment) { ours, _ in ours }
    }

    deinit {
        for agent in started.withLock({ $0 }) where agent.isRunning { agent.stop() }
    }

    /// A subfolder of the harness's folder, created.
    func makeFolder(_ name: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The set-up most agent tests share: `folder` watched with
    /// `template = "receipt"` for the role receipt, and its path.
    func watchReceiptFolder(_ folder: String = "pos") throws -> String {
        let path = try makeFolder(folder)
        try writeConfiguration("""
            [[folder]]
            path = "\(folder)"
            role = "receipt"
            template = "receipt"
            """)
        return path
    }

    /// Writes the agent's configuration. Without an `[http]` table of its own
    /// the API keeps to its Unix socket: agents of several tests must not all
    /// reach for the default port 127.0.0.1:9180.
    func writeConfiguration(_ text: String) throws {
        let withHTTP = text.contains("[http]") ? text : text + "\n\n[http]\nlisten = \"off\"\n"
        try Data(withHTTP.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    /// Saves `printer` under `role`, as an administrator would.
    func assign(_ printer: RunningPrinter, to role: String) async throws {
        let added = try await runner.run(["printers", "add", printer.uri, "--role", role])
        #expect(added.status == 0, "\(added.output)\(added.errors)")
    }

    /// Starts the agent and waits until it says it is ready; `extraEnvironment`
    /// for this start only (a ``CrashPoint`` for the run that is to crash).
    func start(extraEnvironment: [String: String] = [:]) async throws -> Spawned {
        let agent = try Spawned.start(CommandRunner.executable.path, ["run", "--config", configPath],
                                      environment: environment.merging(extraEnvironment) { _, extra in extra }, output: log)
        started.withLock { $0.append(agent) }
        let readyLines = logText.components(separatedBy: "kioskprint agent ready").count
        try await pollUntil("the agent to say it is ready", within: .seconds(30)) {
            guard agent.isRunning else { throw Exited(log: self.logText) }
            return self.logText.components(separatedBy: "kioskprint agent ready").count > readyLines
        }
        return agent
    }

    /// Sends SIGTERM and waits for a clean exit; records the log when it is not.
    func stop(_ agent: Spawned, sourceLocation: SourceLocation = #_sourceLocation) async {
        agent.signal(SIGTERM)
        let status = await agent.exited(within: .seconds(20))
        #expect(status == 0, "the agent did not stop cleanly on SIGTERM; its log:\n\(logText)", sourceLocation: sourceLocation)
    }

    /// Drops a job file the way applications should: written under a
    /// temporary name, then renamed into place.
    func drop(_ contents: String, as name: String, into folder: String) throws {
        let temporary = folder + "/." + name + ".tmp"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, folder + "/" + name) == 0)
    }

    var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    func files(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    struct Exited: Error, CustomStringConvertible {
        let log: String
        var description: String { "the agent exited early; its log:\n\(log)" }
    }
}

/// The repository's kiosk-config folder.
let kioskConfigFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("kiosk-config").path

/// A built-in template's sample data.
func sampleData(_ template: String) throws -> String {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Templates/BuiltIn/\(template).sample.json").path
    return try String(contentsOfFile: path, encoding: .utf8)
}
