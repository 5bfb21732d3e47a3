import BenchSupport
import Foundation
import Simulator
import Synchronization

/// One line a followed tool printed, and when it reached the file.
struct StampedLine: Sendable {
    let text: String
    let at: ContinuousClock.Instant
}

/// A command-line tool left running in the background (a live avahi-browse,
/// ippfind) whose output is read as it grows, each line stamped on arrival.
///
/// `Spawned` can only send output to a file. inotify wakes the reader as soon
/// as the tool writes, so a stamp lags the write by one thread wake-up rather
/// than by a polling interval; a 10 ms poll timeout only bounds how late the
/// tool's exit is noticed.
final class FollowedTool: Sendable {
    /// Just before the tool was spawned.
    let started: ContinuousClock.Instant
    private let process: Spawned
    private let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)

    private struct State {
        var lines: [StampedLine] = []
        /// When the reader first saw the tool gone (within 10 ms of its exit).
        var exited: ContinuousClock.Instant?
        var readerDone = false
    }

    private init(started: ContinuousClock.Instant, process: Spawned) {
        self.started = started
        self.process = process
    }

    /// Starts `executable` with its output going to `logFile`, and a reader thread following that file.
    static func start(_ executable: String, _ arguments: [String], environment: [String: String],
                      logFile: URL) throws -> FollowedTool {
        // The file exists before the tool starts so inotify watches it from the
        // first byte; Spawned opens it with O_TRUNC, which keeps the inode.
        guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
            throw BenchError("could not create \(logFile.path)")
        }
        let inotify = inotify_init1(Int32(IN_CLOEXEC))
        let file = open(logFile.path, O_RDONLY | O_CLOEXEC)
        guard inotify >= 0, file >= 0, inotify_add_watch(inotify, logFile.path, UInt32(IN_MODIFY)) >= 0 else {
            close(inotify); close(file)
            throw BenchError("could not watch \(logFile.path): \(String(cString: strerror(errno)))")
        }
        let started = ContinuousClock.now
        let process: Spawned
        do {
            process = try Spawned.start(executable, arguments, environment: environment, output: logFile.path)
        } catch {
            close(inotify); close(file)
            throw error
        }
        let tool = FollowedTool(started: started, process: process)
        Thread.detachNewThread {
            tool.follow(inotify: inotify, file: file)
            close(inotify); close(file)
        }
        return tool
    }

    /// Every complete line so far.
    var lines: [StampedLine] { state.withLock { $0.lines } }

    /// The first line stamped at or after `instant` that satisfies `matches`.
    func firstLine(since instant: ContinuousClock.Instant, where matches: (String) -> Bool) -> StampedLine? {
        state.withLock { $0.lines.first { $0.at >= instant && matches($0.text) } }
    }

    /// When the tool was seen to have exited, once it has and its last output is read.
    var exited: ContinuousClock.Instant? { state.withLock { $0.readerDone ? $0.exited : nil } }

    /// True once the reader has read everything and stopped.
    var isFinished: Bool { state.withLock { $0.readerDone } }

    /// Stops the tool (SIGTERM, then SIGKILL) if it still runs, and waits for the reader to finish.
    func stop() async {
        process.stop(grace: .seconds(1))
        stopping.store(true, ordering: .releasing)
        _ = await pollUntil(within: .seconds(2)) { isFinished }
    }

    private func follow(inotify: Int32, file: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var events = [UInt8](repeating: 0, count: 4096)
        var watch = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        while true {
            // Looked at before reading, so the read that follows an exit takes
            // in everything the tool wrote.
            let gone = !process.isRunning || stopping.load(ordering: .acquiring)
            if poll(&watch, 1, 10) > 0 { _ = read(inotify, &events, events.count) }
            let now = ContinuousClock.now
            while true {
                let count = read(file, &buffer, buffer.count)
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0..<count])
            }
            var fresh: [StampedLine] = []
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                fresh.append(StampedLine(text: String(decoding: pending[..<newline], as: UTF8.self), at: now))
                pending.removeSubrange(...newline)
            }
            state.withLock { state in
                state.lines += fresh
                if gone && state.exited == nil { state.exited = now }
                if gone { state.readerDone = true }
            }
            if gone { return }
        }
    }
}
