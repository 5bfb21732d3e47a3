import Glibc
import Synchronization

/// A pipe whose read end is polled beside a link's descriptor: closing the
/// write end (POLLHUP) ends a wait in progress, so `close()` from another
/// thread takes effect at once instead of at the caller's deadline.
/// No byte is ever written, so there is no SIGPIPE.
final class WakePipe: Sendable {
    /// Closed by the descriptor's owner, together with the descriptor.
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

    /// Wakes every waiter for good. Safe to call twice.
    func wake() {
        writeEnd.withLock { end in
            if let open = end { Glibc.close(open) }
            end = nil
        }
    }

    deinit { wake() }
}
