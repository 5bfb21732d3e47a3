import CommandLineOutput
import Foundation
import PrintModel
import Simulator
import Store
import Templates

/// The demo's second part: the real agent (`kioskprint run`, this same
/// executable in a child process) on the demo configuration, fed the way a
/// kiosk feeds it: files dropped into its folders and a button pressed on
/// the simulated GPIO chip. It ends once every job has ended and the agent
/// has stopped cleanly on SIGTERM.
struct DemoAgentRun {
    let lab: PrinterLab
    let databasePath: String
    let files: DemoConfiguration
    /// The libgpiod stand-in the agent's buttons and lights use; nil when it could not be built.
    let gpio: GPIOStandIn?
    /// The raw ESC/POS printer of the role `coupon`.
    let coupon: DemoCouponPrinter

    /// Builds the GPIO stand-in (or goes on without it) and writes the configuration.
    static func prepare(lab: PrinterLab, databasePath: String, coupon: DemoCouponPrinter) async throws -> DemoAgentRun {
        var gpio: GPIOStandIn?
        do { gpio = try await GPIOStandIn() } catch {
            // One line: the message's first lines (a compiler's complaint can run long).
            let lines = "\(error)".split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.prefix(3)
            let reason = String(lines.joined(separator: " ").prefix(240))
            print("\nNo simulated GPIO chip (\(reason)): the agent runs without its button and light.")
        }
        let folder = lab.directory.appendingPathComponent("agent").path
        let files = try DemoConfiguration.write(into: folder, withGPIO: gpio != nil)
        return DemoAgentRun(lab: lab, databasePath: databasePath, files: files, gpio: gpio, coupon: coupon)
    }

    /// Runs the agent through the demo; returns every job, ended, in queue order.
    func run(previews: String) async throws -> [PrintJob] {
        print("\n$ cat \(files.configPath)")
        print(files.toml.trimmingCharacters(in: .newlines))
        print("\n$ kioskprint run --config \(files.configPath) --database \(databasePath)")
        var environment = ["DBUS_SYSTEM_BUS_ADDRESS": lab.busAddress, "KIOSKPRINT_DATABASE": databasePath,
                           // Not the demo's supervisor's socket, if it has one: the agent is not the service.
                           "NOTIFY_SOCKET": ""]
        if let gpio { environment.merge(gpio.environment) { _, stand in stand } }
        let agent = try DemoAgentProcess(arguments: ["run", "--config", files.configPath, "--database", databasePath],
                                         environment: environment, logPath: files.log)
        try await agent.wait(for: "the agent to say it is ready", within: .seconds(30)) {
            agent.logText.contains("kioskprint agent ready")
        }

        let drops = try files.sampleDrops()
        print("\nAn application drops jobs (written as .NAME.tmp, then renamed):")
        for drop in drops {
            try DemoConfiguration.place(drop)
            print("  \(drop.folder.replacingOccurrences(of: files.folder + "/", with: ""))/\(drop.name): \(drop.what)")
        }
        let presses = gpio == nil ? 0 : 2
        if let gpio {
            print("\nSomeone presses the take-a-number button (GPIO line \(DemoConfiguration.buttonLine), simulated) twice:")
            for _ in 0..<presses {
                try await gpio.press(line: DemoConfiguration.buttonLine, heldFor: .milliseconds(200))
            }
        }

        try await showRefusal(of: drops[2], agent: agent)
        if let gpio { try await showLight(gpio, agent: agent) }

        let store = try KioskStore(path: databasePath)
        let api = try await DemoAPI.start(agent: agent, store: store, folder: files.folder + "/pos-app")
        let posted = try await api.postReceipt(data: try sampleReceipt())
        let printedThroughCups = try await DemoCups.printReceipt(agent: agent, store: store, folder: files.folder)
        let dropped = drops.count - 1  // the malformed receipt is refused, not queued
        let expected = dropped + presses + (posted ? 1 : 0) + (printedThroughCups ? 1 : 0)
        print("\nWaiting until the \(expected) jobs queued have ended:")
        var latest: [PrintJob] = []
        let states = { " The jobs: " + (latest.isEmpty ? "none queued." : latest.map { "\($0.id) \"\($0.name)\" \($0.state)" }
            .joined(separator: ", ") + ".") }
        try await agent.wait(for: "\(expected) jobs to end", within: .seconds(60), detail: states) {
            latest = try await store.jobs(includeFinished: true)
            return latest.count >= expected && latest.allSatisfy(\.state.isTerminal)
        }
        try check(latest, expected: expected, presses: presses)
        if try await DemoRawTill.print(agent: agent, store: store, coupon: coupon, folder: files.folder) {
            latest = try await store.jobs(includeFinished: true)
        }
        if try await DemoEposPage.print(agent: agent, store: store, folder: files.folder) {
            latest = try await store.jobs(includeFinished: true)
        }
        if try await DemoWebPrntPage.print(agent: agent, folder: files.folder) {
            latest = try await store.jobs(includeFinished: true)
        }
        try await api.showAfterwards(previews: previews)

        // The administrator's commands, run as they would type them, with the kioskprint beside the demo.
        print("\n$ kioskprint jobs --all")
        let jobs = try DemoAgentProcess.command(["jobs", "--all", "--database", databasePath])
        guard jobs.status == 0 else { throw demoFailure("`kioskprint jobs --all` failed: \(jobs.errors)") }
        print("\n$ kioskprint status")
        guard try DemoAgentProcess.command(["status", "--database", databasePath]).status == 0 else {
            throw demoFailure("`kioskprint status` found the agent not running or a printer not ready (see above).")
        }

        print("\nStopping the agent with SIGTERM:")
        try await agent.stop()
        if let gpio, gpio.value(line: DemoConfiguration.lightLine) != 0 {
            throw demoFailure("the stopped agent left the receipt light (line \(DemoConfiguration.lightLine)) on.")
        }
        print("The agent exited with status 0\(gpio == nil ? "" : " and left its light off").")
        return latest
    }

    /// The built-in receipt's sample data, what the demo's POS posts.
    private func sampleReceipt() throws -> String {
        guard let sample = try TemplateCatalog().find("receipt").sampleData else {
            throw demoFailure("the built-in receipt template has no sample data.")
        }
        return sample
    }

    /// Waits for the malformed file to land in failed/ and prints its `.error`.
    private func showRefusal(of drop: DemoConfiguration.Drop, agent: DemoAgentProcess) async throws {
        let errorFile = drop.folder + "/failed/" + drop.name + ".error"
        try await agent.wait(for: "\(drop.name) to be refused into failed/", within: .seconds(20)) {
            FileManager.default.fileExists(atPath: errorFile)
                && FileManager.default.fileExists(atPath: drop.folder + "/failed/" + drop.name)
        }
        let text = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        print("\n$ cat pos/failed/\(drop.name).error")
        print(text.trimmingCharacters(in: .newlines))
    }

    /// Waits for the receipt printer's light to come on and shows the line as the stand-in saw it.
    private func showLight(_ gpio: GPIOStandIn, agent: DemoAgentProcess) async throws {
        let line = DemoConfiguration.lightLine
        try await agent.wait(for: "the receipt light (line \(line)) to come on", within: .seconds(20)) {
            gpio.value(line: line) == 1
        }
        let changes = gpio.changes(line: line).map(String.init).joined(separator: " -> ")
        print("\nThe receipt printer's light, GPIO line \(line) (simulated): on, driven \(changes).")
    }

    /// Every job completed, and the button's tickets numbered 1, 2, ... from the counter.
    private func check(_ jobs: [PrintJob], expected: Int, presses: Int) throws {
        let unfinished = jobs.filter { $0.state != .completed }
        guard jobs.count == expected, unfinished.isEmpty else {
            let states = jobs.map { "job \($0.id) \"\($0.name)\" \($0.state)\($0.lastError.map { ": \($0)" } ?? "")" }
            throw demoFailure("expected \(expected) completed jobs, found: \(states.joined(separator: "; ")).")
        }
        let tickets = jobs.filter { if case .template("queue-ticket", _) = $0.content { true } else { false } }
        for (index, ticket) in tickets.enumerated() where !ticket.name.hasPrefix("queue-ticket \(index + 1) ") {
            throw demoFailure("ticket \(index + 1) was queued as \"\(ticket.name)\", not numbered \(index + 1).")
        }
        guard tickets.count == presses else {
            throw demoFailure("\(presses) button presses queued \(tickets.count) tickets.")
        }
    }
}
