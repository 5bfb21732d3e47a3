import CommandLineOutput
import Dispatch
import Foundation
import Simulator

/// `kioskprint run` as the demo starts it: the kioskprint program beside the demo, in a child
/// process, its log in a file that the demo shows line by line as it grows.
final class DemoAgentProcess {
    let process: Spawned
    let logPath: String
    /// How much of the log has been shown.
    private var shown = 0
    /// Sends the agent SIGTERM if the demo itself is ended by a signal (the
    /// lab stops its own children then, but does not know this one).
    private let guards: [any DispatchSourceSignal]

    /// The agent's program: `kioskprint` in the folder this demo runs from
    /// (both are built into the same folder), so the demo runs the very
    /// binary a kiosk would.
    static func executable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let demo = length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                              : CommandLine.arguments[0]
        return (demo as NSString).deletingLastPathComponent + "/kioskprint"
    }

    /// Runs `kioskprint ARGUMENTS` to its end and shows what it printed, as in a terminal.
    static func command(_ arguments: [String]) throws -> Subprocess.Output {
        let result = try Subprocess.run(executable(), arguments, limit: .seconds(60))
        print(result.output, terminator: "")
        FileHandle.standardError.write(Data(result.errors.utf8))
        fflush(nil)
        return result
    }

    init(arguments: [String], environment: [String: String], logPath: String) throws {
        process = try Spawned.start(Self.executable(), arguments, environment: environment, output: logPath)
        self.logPath = logPath
        let pid = process.pid
        guards = [SIGINT, SIGTERM, SIGHUP].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { kill(pid, SIGTERM) }
            source.resume()
            return source
        }
    }

    deinit {
        guards.forEach { $0.cancel() }
        process.stop()
    }

    var logText: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The address the agent's log gives right after `marker` ("... at URL"), as a listener logs where it serves.
    func loggedAddress(after marker: String) -> String? {
        guard let line = logText.split(separator: "\n").first(where: { $0.contains(marker) }) else { return nil }
        return line.components(separatedBy: marker).last?.split(separator: " ").first.map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ";"))) }
    }

    /// Prints the log's complete lines not shown yet, each as `  agent | TIME LEVEL message`.
    func showNewLines() {
        let text = logText
        let bytes = Array(text.utf8)
        guard let end = bytes.lastIndex(of: UInt8(ascii: "\n")), end + 1 > shown else { return }
        let fresh = String(decoding: bytes[shown...end], as: UTF8.self)
        shown = end + 1
        for line in fresh.split(separator: "\n") { print("  agent | " + Self.shortened(String(line))) }
        fflush(nil)  // as it happens, into a pipe or a CI log too
    }

    /// Drops the date from the agent's `2026-11-23 14:05:00.123 INFO ...`
    /// lines; lines in journald's form (`<6>...`) are shown as they are.
    static func shortened(_ line: String) -> String {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 10, parts[0].filter({ $0 == "-" }).count == 2 else { return line }
        return String(parts[1])
    }

    /// Waits for `condition`, showing the log as it grows; throws a demo
    /// failure, with `detail()` and the log's end, if the agent exits or `limit` passes.
    func wait(for what: String, within limit: Duration, detail: () -> String = { "" },
              _ condition: () async throws -> Bool) async throws {
        do {
            try await pollUntil(what, within: limit, every: .milliseconds(50)) {
                showNewLines()
                guard process.isRunning else {
                    throw demoFailure("the agent exited (status \(exitDescription)) while the demo waited for \(what).\(detail())\(tail)")
                }
                return try await condition()
            }
        } catch let error as CLIError {
            throw error
        } catch LabError.timedOut {
            throw demoFailure("the demo waited \(limit) for \(what), in vain.\(detail())\(tail)")
        } catch {
            throw demoFailure("while the demo waited for \(what): \(error)\(detail())\(tail)")
        }
        showNewLines()
    }

    /// SIGTERM, then the wait for a clean exit: status 0 within 20 s.
    func stop() async throws {
        process.signal(SIGTERM)
        let status = await process.exited(within: .seconds(20))
        showNewLines()
        guard let status else { throw demoFailure("the agent was still running 20 s after SIGTERM.\(tail)") }
        guard exitCode(of: status) == 0 else {
            throw demoFailure("the agent exited with status \(exitCode(of: status)) on SIGTERM, not 0.\(tail)")
        }
    }

    var exitDescription: String { process.exitStatus.map { "\(exitCode(of: $0))" } ?? "running" }

    /// The end of the log, for a failure's message (the lab's folder, which holds it, goes when the demo ends).
    var tail: String {
        let lines = logText.split(separator: "\n").suffix(15)
        return lines.isEmpty ? " The agent logged nothing." : " The agent's log ends:\n" + lines.joined(separator: "\n")
    }
}
