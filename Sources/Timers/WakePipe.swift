import Glibc
import Synchronization

/// The way another thread ends a `poll(2)` in progress: the polling thread
/// watches `readEnd` beside its real descriptors, and `wake()` closes the
/// write end, which every poll on the read end sees at once (POLLHUP, and
/// end of file to a read). Nothing is ever written, so a writer never waits
/// and there is no SIGPIPE once the reader has gone; waking twice is harmless.
///
/// Used by every thread that blocks in C: Avahi's poll loop, libgpiod's
/// edge waits and the raw printer links' reads and writes.
public final class WakePipe: Sendable {
    /// The end to poll. Open until `closeReadEnd()` or until the pipe is freed.
    public let readEnd: Int32
    private let ends: Mutex<(write: Int32?, readOpen: Bool)>

    /// Nil when the process is out of file descriptors; errno says why.
    public init?() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        // pipe2 is not visible from Swift's Glibc module; close-on-exec by hand,
        // so child processes (printers, tools) do not inherit it.
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        readEnd = fds[0]
        ends = Mutex((write: fds[1], readOpen: true))
    }

    /// Wakes every poll on the read end, for good. Safe from any thread, any number of times.
    public func wake() {
        ends.withLock { ends in
            if let open = ends.write { Glibc.close(open) }
            ends.write = nil
        }
    }

    /// Closes the read end now, for an owner that lets its descriptors go
    /// together when its poll loop ends rather than when the pipe is freed.
    public func closeReadEnd() {
        ends.withLock { ends in
            if ends.readOpen { Glibc.close(readEnd) }
            ends.readOpen = false
        }
    }

    deinit {
        wake()
        closeReadEnd()
    }
}
