public import Foundation
import PrintModel
import Setup
public import Simulator
public import Store

/// The kiosk the agent bench runs: a folder holding the configuration, a
/// custom ticket template, the database and two watched folders, with the
/// printers saved under their roles, as an administrator would leave a box.
///
/// - `receipts/` takes the built-in receipt's data (`template = "receipt"`), role receipt;
/// - `labels/` takes JSON envelopes for the built-in shipping label, role label;
/// - a button on line 17 of the GPIO stand-in prints `bench-ticket` with a counter, role ticket;
/// - a light on line 27 shows the receipt printer.
///
/// The receipt printer holds the receipt and ticket roles, the label printer the label role.
public struct AgentSite: Sendable {
    /// The kiosk's folder: configuration, templates, state, the watched folders, logs.
    public let folder: URL
    /// The `kioskprint` binary the agent runs (`KioskprintBinary`).
    public let kioskprint: String
    /// The agent's TOML file.
    public let configPath: String
    /// The agent's SQLite database.
    public let database: String
    /// The watched folder for the receipt template's data (role receipt).
    public let receipts: String
    /// The watched folder for shipping-label envelopes (role label).
    public let labels: String
    /// The libgpiod stand-in the agent is preloaded with: its button and light.
    public let gpio: GPIOStandIn
    /// The agent's database, opened by the bench to follow the queue (WAL: both may use it at once).
    public let store: KioskStore

    /// The site's fixed names and limits, as its configuration uses them.
    public static let box = "bench-kiosk"
    public static let buttonLine = 17
    public static let lightLine = 27
    public static let counter = "bench"
    public static let ticketTemplate = "bench-ticket"
    public static let doneLimit = 1000
    public static let ticketRole = "ticket"

    /// A small numbered ticket: the button's job.
    public static let ticketMarkup = """
        <!-- kioskprint-bench: the button's ticket, with the counter the agent keeps. -->
        <template page="roll" min-length="40mm" margin="2mm">
          <text align="center" size="12" bold="true">{{heading}}</text>
          <text align="center" size="48" bold="true" wrap="char">{{counter}}</text>
          <row size="9"><col width="1fr">{{date}}</col><col align="right">{{time}}</col></row>
          <text align="center" size="7">{{box}}</text>
          <cut/>
        </template>

        """

    /// Creates the site in `folder`, saves the printers under their roles and
    /// has `kioskprint config check` read the configuration.
    public static func prepare(in folder: URL, kioskprint: String, receiptPrinter: RunningPrinter,
                        labelPrinter: RunningPrinter, gpio: GPIOStandIn) async throws -> AgentSite {
        let manager = FileManager.default
        let templates = folder.appendingPathComponent("templates")
        let receipts = folder.appendingPathComponent("receipts").path
        let labels = folder.appendingPathComponent("labels").path
        for path in [templates.path, receipts, labels, folder.appendingPathComponent("state").path] {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        try Data(ticketMarkup.utf8).write(to: templates.appendingPathComponent("\(ticketTemplate).xml"))
        let database = folder.appendingPathComponent("state/kioskprint.sqlite").path
        let configPath = folder.appendingPathComponent("kioskprint.toml").path
        try Data(configuration(database: database, templates: templates.path, receipts: receipts, labels: labels).utf8)
            .write(to: URL(fileURLWithPath: configPath))

        let store = try KioskStore(path: database)
        let setup = RoleSetup(store: store)
        _ = try await setup.add(uri: receiptPrinter.uri, role: try Role("receipt"), as: .primary)
        _ = try await setup.add(uri: receiptPrinter.uri, role: try Role(ticketRole), as: .primary)
        _ = try await setup.add(uri: labelPrinter.uri, role: try Role("label"), as: .primary)

        let site = AgentSite(folder: folder, kioskprint: kioskprint, configPath: configPath, database: database,
                             receipts: receipts, labels: labels, gpio: gpio, store: store)
        let scratch = folder.appendingPathComponent("scratch")
        try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
        _ = try await offloaded {
            try MeasuredProcess.mustSucceed(kioskprint, ["config", "check", configPath], folder: scratch)
        }
        return site
    }

    /// The realistic configuration: 2 folders, 1 button, 1 light.
    public static func configuration(database: String, templates: String, receipts: String, labels: String) -> String {
        """
        # kioskprint-bench agent: two watched folders, a take-a-number button and a light.
        box = "\(box)"
        database = "\(database)"
        templates = ["\(templates)"]
        log-level = "info"

        [spooler]
        failover-after = "30s"

        # The POS's receipts: each file is the receipt template's data.
        [[folder]]
        path = "\(receipts)"
        role = "receipt"
        template = "receipt"
        done-limit = \(doneLimit)
        max-size = "1MB"

        # Shipping labels as envelopes: {"template": "shipping-label", "role": "label", "data": {...}}.
        [[folder]]
        path = "\(labels)"
        role = "label"
        done-limit = \(doneLimit)
        max-size = "1MB"

        [[button]]
        name = "take-a-number"
        chip = "gpiochip0"
        line = \(buttonLine)
        active-low = true
        bias = "pull-up"
        debounce = "30ms"

        [button.press]
        print = "\(ticketTemplate)"
        role = "\(ticketRole)"
        counter = "\(counter)"

        [button.press.data]
        heading = "Bench counter"

        [[light]]
        role = "receipt"
        chip = "gpiochip0"
        line = \(lightLine)
        check-every = "2s"

        """
    }

    // MARK: The agent process

    /// One agent started and ready.
    public struct Run: Sendable {
        /// The agent's process.
        public let agent: Spawned
        /// From just before posix_spawn to the arrival of READY=1.
        public let toReady: Duration
        /// The whole datagram that said READY=1 (with its STATUS=).
        public let message: String
    }

    /// Starts `kioskprint run --config FILE` with `$NOTIFY_SOCKET` pointing at
    /// `notify` and the GPIO stand-in preloaded, and returns when READY=1
    /// arrives. Blocks the calling thread (run it offloaded): the time is
    /// taken as recv returns, not at a poll. `wrapper` runs the agent under
    /// another program (`valgrind --tool=callgrind ...`), with `binary` in
    /// place of the release kioskprint.
    public func start(notify: NotifySocket, log: String, wrapper: [String] = [], binary: String? = nil,
               readyWithin limit: Duration = .seconds(60)) throws -> Run {
        notify.drain()
        var environment = gpio.environment
        environment["NOTIFY_SOCKET"] = notify.path
        let command = wrapper + [binary ?? kioskprint, "run", "--config", configPath]
        let started = ContinuousClock.now
        let agent = try Spawned.start(command[0], Array(command.dropFirst()), environment: environment, output: log)
        let deadline = started + limit
        while true {
            if let message = notify.receive() {
                if message.split(separator: "\n").contains("READY=1") {
                    return Run(agent: agent, toReady: ContinuousClock.now - started, message: message)
                }
                continue
            }
            let exited = !agent.isRunning
            if exited || ContinuousClock.now > deadline {
                agent.stop()
                let tail = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(8)
                throw BenchError("the agent \(exited ? "exited" : "sent no READY=1 within \(limit)") (log \(log)): "
                    + tail.joined(separator: " / "))
            }
        }
    }

    /// SIGTERM, then the wait for the exit; returns the time between and the
    /// exit status (137 when it had to be killed after `limit`). Blocks the
    /// calling thread: waitid wakes at the exit itself.
    public func stop(_ agent: Spawned, limit: Duration = .seconds(30)) -> (elapsed: Duration, status: Int32) {
        let started = ContinuousClock.now
        agent.signal(SIGTERM)
        let watchdog = Watchdog(pid: agent.pid, limit: limit)
        // WNOWAIT: timed here, reaped by Spawned (which keeps the status) below.
        var info = siginfo_t()
        while waitid(P_PID, id_t(agent.pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - started
        watchdog.disarm()
        let status = agent.exitStatus.map(exitCode(of:)) ?? -1
        return (elapsed, status)
    }

    /// The database and its WAL, in bytes.
    public var databaseBytes: Int64 {
        [database, database + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    // MARK: Jobs

    /// Drops one file the way applications should: written under a
    /// temporary name, then renamed into the watched folder.
    public func drop(_ contents: Data, as name: String, into folder: String) throws {
        let temporary = folder + "/." + name + ".tmp"
        try contents.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, folder + "/" + name) == 0 else {
            throw BenchError("rename \(temporary) into \(folder): \(String(cString: strerror(errno)))")
        }
    }

    /// Names in `path` other than hidden ones (the claims, the agent's lock) and the three subfolders.
    public static func entries(in path: String, excludingSubfolders: Bool = false) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !(excludingSubfolders && ["processing", "done", "failed"].contains($0)) }
    }

    /// Every entry in processing/, hidden claims included (only `.agent.lock` is not work).
    public static func inProcessing(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/processing")) ?? []).filter { $0 != ".agent.lock" }
    }
}
