import Foundation
import Glibc

/// The lock a running agent holds beside the database, so `print --wait`
/// knows whether someone else will deliver its job. Advisory only: the
/// database's claims are what keep two processes from sending one job.
public struct AgentLock: Sendable {
    /// `agent.lock` in the database's folder.
    public let path: String

    public init(databasePath: String) {
        path = (databasePath as NSString).deletingLastPathComponent + "/agent.lock"
    }

    /// Takes the lock for this process's lifetime and writes this process's
    /// pid into it; nil when another agent holds it.
    public func acquire() -> Int32? {
        guard let fd = lock() else { return nil }
        // The holder's pid, for `kioskprint status`; the lock itself is the flock.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return fd
    }

    /// The pid the holder wrote, when one did.
    public var holder: Int32? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// True when an agent holds the lock now. Only tries the lock: the
    /// holder's pid in the file is left as it is.
    public var isHeld: Bool {
        guard let fd = lock() else { return FileManager.default.fileExists(atPath: path) }
        close(fd)   // closing releases it again
        return false
    }

    private func lock() -> Int32? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
