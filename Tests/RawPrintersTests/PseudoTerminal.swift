import Glibc

/// A pseudo-terminal standing in for a serial line: the link opens the
/// slave by its path, as it would /dev/ttyUSB0, and the test plays the
/// printer on the master. The test keeps a slave descriptor of its own, so
/// the terminal stays up between opens and its termios can be read back.
final class PseudoTerminal: @unchecked Sendable { // descriptors are used by one test at a time
    let path: String
    let master: Int32
    /// The test's own descriptor of the slave side (O_NOCTTY).
    let slave: Int32

    /// `raw` sets the terminal raw first, for tests that open it as a USB
    /// node, which configures nothing (a terminal translates line ends by default).
    init(raw: Bool = false) throws {
        // openpty (posix_openpt, grantpt, unlockpt and the slave's open in
        // one call): Swift's Glibc module leaves posix_openpt and ptsname_r out.
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw SetupFailure.system("openpty") }
        self.master = master
        self.slave = slave
        var name = [CChar](repeating: 0, count: 128)
        guard ttyname_r(slave, &name, name.count) == 0 else { throw SetupFailure.system("ttyname_r") }
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        if raw {
            var options = termios()
            tcgetattr(slave, &options)
            cfmakeraw(&options)
            tcsetattr(slave, TCSANOW, &options)
        }
    }

    deinit {
        close(slave)
        close(master)
    }

    /// The slave's settings as the kernel holds them.
    func settings() throws -> termios {
        var options = termios()
        guard tcgetattr(slave, &options) == 0 else { throw SetupFailure.system("tcgetattr") }
        return options
    }

    /// Reads from the master until `count` bytes came (what the link wrote).
    func read(count: Int, within limit: Duration = .seconds(10)) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + limit
        while received.count < count {
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
            let left = deadline - .now
            let milliseconds = max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&fds, 1, Int32(clamping: milliseconds)) > 0 else {
                throw SetupFailure("only \(received.count) of \(count) bytes came through \(path)")
            }
            let got = chunk.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, min($0.count, count - received.count)) }
            if got < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard got > 0 else { throw SetupFailure.system("read from the master of \(path)") }
            received += chunk[..<got]
        }
        return received
    }

    /// Writes to the master: what the printer sends back.
    func write(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw SetupFailure.system("write to the master of \(path)") }
    }
}
