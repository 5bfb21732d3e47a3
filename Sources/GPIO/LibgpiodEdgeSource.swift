internal import CGpiod
import Foundation
import Glibc
import Timers

/// The edges of a line requested through libgpiod.
///
/// A thread of its own blocks in `poll` on the line's event descriptor and
/// a wake pipe: libgpiod's calls block, and Swift's cooperative pool has one
/// thread per core (two on a kiosk box), so a blocked one would stall the
/// agent. `close()` closes the pipe's write end; the thread then releases
/// the line, closes the chip and finishes the stream, and `close()` waits for
/// that, so the line can be requested again as soon as it returns.
final class LibgpiodEdgeSource: EdgeSource {
    let edges: AsyncStream<LineEdge>
    private let wake: WakePipe
    /// Entered while the reading thread runs.
    private let running = DispatchGroup()

    /// Takes ownership of `opened`, which must be requested for edge events.
    /// On failure the line is released and the chip closed.
    init(_ opened: OpenedLine) throws(GPIOError) {
        let eventFD = gpiod_line_event_get_fd(opened.line)
        guard eventFD >= 0, let wake = WakePipe() else {
            let code = errno
            opened.close()
            throw opened.error(.ioFailed(errno: code))
        }
        self.wake = wake
        let (stream, continuation) = AsyncStream<LineEdge>.makeStream()
        edges = stream
        // A consumer that stops iterating (or is cancelled) lets go of the line too.
        continuation.onTermination = { _ in wake.wake() }
        running.enter()
        let thread = Thread { [running] in
            Self.run(opened, eventFD: eventFD, wake: wake, continuation: continuation)
            running.leave()
        }
        thread.name = "KioskPrint GPIO \(opened.address)"
        thread.start()
    }

    /// Wakes the thread and waits for it to release the line. The wait is
    /// short (poll returns at once on the closed pipe), so blocking the
    /// caller, even on the cooperative pool, costs less than a line that is
    /// still busy when the caller requests it again.
    func close() {
        wake.wake()
        running.wait()
    }

    /// Does not wait: the thread needs nothing of this object to finish.
    deinit { wake.wake() }

    /// The reading thread: owns the line, the chip and the pipe's read end.
    private static func run(_ opened: OpenedLine, eventFD: Int32, wake: WakePipe,
                            continuation: AsyncStream<LineEdge>.Continuation) {
        defer {
            opened.close()
            wake.closeReadEnd()
            continuation.finish()
        }
        while true {
            var fds = [pollfd(fd: eventFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else {
                if fds[0].revents != 0 { return }  // POLLERR, POLLHUP or POLLNVAL: nothing more will come
                continue
            }
            var event = gpiod_line_event()
            guard gpiod_line_event_read(opened.line, &event) == 0 else {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            // With the active-low flag the kernel already reports a press as rising.
            let timestamp = Duration.seconds(Int64(event.ts.tv_sec)) + .nanoseconds(Int64(event.ts.tv_nsec))
            continuation.yield(LineEdge(isActive: Int(event.event_type) == GPIOD_LINE_EVENT_RISING_EDGE,
                                        timestamp: timestamp))
        }
    }
}
