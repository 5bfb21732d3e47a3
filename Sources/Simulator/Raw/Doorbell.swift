import Glibc

/// A pipe a reading thread polls beside its socket, so that another thread
/// can wake it (to stop, or to look at changed settings) without timers.
/// Both ends are non-blocking: a ring never blocks, however often it comes.
final class Doorbell: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw RawSimulatorError.system("pipe", errno) }
        for end in ends {
            // pipe2 is not visible from Swift's Glibc module; set the flags by hand.
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the thread polling `readEnd`. A full pipe already rings.
    func ring() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }
}
