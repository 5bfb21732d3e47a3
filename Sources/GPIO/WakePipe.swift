import Glibc
import Synchronization

/// A pipe whose read end a polling thread watches beside its real
/// descriptor: closing the write end (POLLHUP) tells the thread to stop.
/// No byte is ever written, so there is no SIGPIPE if the reader has gone.
final class WakePipe: Sendable {
    /// Owned by the polling thread, which closes it when it ends.
    let readEnd: Int32
    private let writeEnd: Mutex<Int32?>

    /// Nil when the process is out of file descriptors; errno says why.
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        // pipe2 is not visible from Swift's Glibc module; set close-on-exec by hand.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        readEnd = ends[0]
        writeEnd = Mutex(ends[1])
    }

    /// Wakes the reader for good. Safe to call twice.
    func wake() {
        writeEnd.withLock { end in
            if let open = end { Glibc.close(open) }
            end = nil
        }
    }

    deinit { wake() }
}
