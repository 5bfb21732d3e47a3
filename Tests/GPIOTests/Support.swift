import Foundation
import GPIO
import Simulator
import Synchronization
import Testing
import Triggers

/// The built `kioskprint` binary, found beside the test bundle in the build
/// folder (as CLITests' CommandRunner finds it).
enum KioskPrintBinary {
    static var path: String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // Swift Testing may run from inside the .xctest bundle on some platforms.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("kioskprint").path),
              folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("kioskprint").path
    }

    /// Runs `kioskprint ARGUMENTS` to its end with the stand-in's chips.
    static func run(_ arguments: [String], with standIn: GPIOStandIn) async throws -> Subprocess.Output {
        try await offloaded {
            try Subprocess.run(path, arguments, environment: standIn.environment, limit: .seconds(30))
        }
    }
}

/// A `kioskprint` that keeps running (watch, blink) while the test drives
/// its lines; stopped, if still running, when the test lets go of it.
final class RunningCommand {
    let process: Spawned
    private let folder: String

    init(_ arguments: [String], with standIn: GPIOStandIn) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        process = try Spawned.start(KioskPrintBinary.path, arguments, environment: standIn.environment,
                                    output: folder + "/out", errors: folder + "/err")
    }

    deinit {
        process.stop(grace: .seconds(1))
        try? FileManager.default.removeItem(atPath: folder)
    }

    var output: String { (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "" }
    var outputLines: [String] { output.split(separator: "\n").map(String.init) }

    /// Waits until the command holds `line` of the stand-in's `chip`. If it
    /// does not within `limit`, records whether it is still running and what
    /// it wrote, so that a child slowed by the full suite's load can be told
    /// from one that failed (in a CI run, a debug `gpio watch` made no request
    /// within the stand-in's 60 s while its suite's other commands had
    /// theirs after 16 s; nothing said which).
    func requested(line: Int, chip: String = "gpiochip0", on standIn: GPIOStandIn,
                   within limit: Duration = .seconds(90)) async -> GPIOStandIn.Request? {
        let request = await standIn.waitForRequest(chip: chip, line: line, within: limit)
        if request == nil {
            let state = process.exitStatus.map { "it ended with status \(Simulator.exitCode(of: $0))" } ?? "it is still running"
            let said = "its errors: \(errors.isEmpty ? "none" : errors); its output: \(output.isEmpty ? "none" : output)"
            Issue.record("kioskprint made no request for line \(line) of \(chip) within \(limit): \(state); \(said)")
        }
        return request
    }

    /// The exit code once it has ended; nil if it still runs after `limit`.
    func exitCode(within limit: Duration = .seconds(20)) async -> Int32? {
        await process.exited(within: limit).map(Simulator.exitCode(of:))
    }
}

/// An output line that records every value it is set to.
final class RecordingLine: OutputLine {
    private let state = Mutex<(values: [Bool], closed: Bool)>(([], false))
    /// When set, every `set` fails with this error (and records nothing).
    let failure: GPIOError?

    init(failing failure: GPIOError? = nil) { self.failure = failure }

    var values: [Bool] { state.withLock { $0.values } }
    var isClosed: Bool { state.withLock { $0.closed } }

    func set(_ lit: Bool) throws(GPIOError) {
        if let failure { throw failure }
        let closed = state.withLock { state in
            if !state.closed { state.values.append(lit) }
            return state.closed
        }
        if closed { throw GPIOError(chip: "recording", line: .offset(0), reason: .closed) }
    }

    func close() { state.withLock { $0.closed = true } }
}

/// True when no two neighbours are equal: on, off, on, off...
func alternates<T: Equatable>(_ values: some Collection<T>) -> Bool {
    zip(values, values.dropFirst()).allSatisfy { $0 != $1 }
}

/// Edges at the given milliseconds, alternately pressed and released.
func edges(_ milliseconds: Int..., startingActive: Bool = true) -> [LineEdge] {
    milliseconds.enumerated().map { index, ms in
        LineEdge(isActive: (index % 2 == 0) == startingActive, timestamp: .milliseconds(ms))
    }
}

extension ButtonDecoder {
    /// Every press in `edges`, in order, fed one by one as the agent feeds them.
    mutating func presses(in edges: some Sequence<LineEdge>) -> [ButtonPress] {
        edges.compactMap { feed($0) }
    }
}
