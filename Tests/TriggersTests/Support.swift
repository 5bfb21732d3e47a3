import Glibc
import Synchronization
import Foundation
import Testing
@testable import Triggers

/// A fresh temporary folder for one test, removed afterwards.
final class TempFolder {
    let path: String
    /// A second folder on the same filesystem, for files renamed in.
    let staging: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path + "/triggers-\(UUID().uuidString)"
        path = base + "/watched"
        staging = base + "/staging"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }

    func sub(_ parts: String...) -> String { ([path] + parts).joined(separator: "/") }

    /// Writes and closes a file, as a kiosk application would (IN_CLOSE_WRITE).
    func write(_ name: String, bytes: Int = 16, in directory: String? = nil) throws {
        let target = (directory ?? path) + "/" + name
        let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw TestFailure("open \(target): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let data = [UInt8](repeating: 0x41, count: bytes)
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes else { throw TestFailure("short write to \(target)") }
    }

    /// Writes `name` into `done/` as finished long ago: `second` seconds after
    /// 1970-01-12, so that it is older than anything finished now.
    func writeFinishedLongAgo(_ name: String, second: Int) throws {
        try write(name, in: sub("done"))
        var times = [timespec(tv_sec: 1_000_000 + second, tv_nsec: 0), timespec(tv_sec: 1_000_000 + second, tv_nsec: 0)]
        guard utimensat(AT_FDCWD, sub("done", name), &times, 0) == 0 else {
            throw TestFailure("utimensat \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// Renames a staged entry into the watched folder (IN_MOVED_TO).
    func moveIn(_ name: String, as newName: String? = nil) throws {
        guard rename(staging + "/" + name, path + "/" + (newName ?? name)) == 0 else {
            throw TestFailure("rename \(name): \(String(cString: strerror(errno)))")
        }
    }

    func names(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Everything a watched folder reported, in order: to look at afterwards,
/// or to wait for as it comes (`stream`, iterated once).
final class ReportLog: Sendable {
    private let all = Mutex<[FolderReport]>([])
    let stream: AsyncStream<FolderReport>
    private let continuation: AsyncStream<FolderReport>.Continuation

    init() { (stream, continuation) = AsyncStream<FolderReport>.makeStream() }

    var sink: @Sendable (FolderReport) -> Void { { [self] report in record(report) } }

    private func record(_ report: FolderReport) {
        all.withLock { $0.append(report) }
        continuation.yield(report)
    }

    var reports: [FolderReport] { all.withLock { $0 } }

    var troubles: [String] {
        reports.compactMap { if case .trouble(let message) = $0 { message } else { nil } }
    }
}

/// Creates a file whose name is `name` as bytes, which need not be UTF-8.
func createFile(named name: [UInt8], in directory: String) throws {
    let path = Array(directory.utf8) + [UInt8(ascii: "/")] + name + [0]
    let fd = path.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    }
    guard fd >= 0 else { throw TestFailure("create \(name) in \(directory): \(String(cString: strerror(errno)))") }
    _ = write(fd, "job", 3)
    close(fd)
}

/// Waits until no agent holds the folder's lock, as after a crash the
/// kernel lets it go: a blocking flock, on a thread of its own.
func waitForAgentLock(_ temp: TempFolder) async {
    let path = temp.sub("processing", ".agent.lock")
    await Task.detached {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = flock(fd, LOCK_EX)
        close(fd)
    }.value
}
