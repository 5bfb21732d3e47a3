import Glibc

/// The way another thread asks the poll thread to stop.
///
/// Avahi's simple poll is not thread-safe: `avahi_simple_poll_quit` touches
/// unguarded state, and `avahi_simple_poll_wakeup` would need the poll to be
/// alive at the moment another thread calls it. A pipe needs neither: the
/// poll thread watches the read end like any other descriptor, and `signal()`
/// is a single `write(2)`, which is safe from any thread. The pipe belongs to
/// this object, so it stays open for as long as anyone can still call
/// `signal()`, even after the poll loop has ended.
final class WakePipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(DiscoveryError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system(operation: "create a pipe", errno: errno) }
        for fd in fds {
            // Non-blocking: a full pipe already holds a pending wake-up, so a
            // writer must never wait, and the reader drains until EAGAIN.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            // Close-on-exec: child processes (printers, tools) must not inherit it.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Asks the poll thread to stop. Safe from any thread, any number of times.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe; called on the poll thread when the read end is readable.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
