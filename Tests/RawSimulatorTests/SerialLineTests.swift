import Glibc
import Simulator
import Testing

/// The pseudo-terminal standing in for a serial or USB-serial line: the
/// agent's side opens /dev/pts/N as it would /dev/ttyUSB0.
@Suite("Serial line stand-in", .timeLimit(.minutes(1)))
struct SerialLineTests {
    @Test("Bytes written to the slave path are parsed, and status answers come back on it")
    func escPosOverPseudoTerminal() async throws {
        let printer = try EscPosPrinterSimulator.serialLine(.init(printableWidth: 16))
        defer { printer.stop() }
        let path = try #require(printer.devicePath)
        #expect(path.hasPrefix("/dev/pts/"))
        #expect(printer.uri == "serial://\(path)?baud=115200")

        let line = try SerialLine(path: path)
        try line.write(EscPos.raster(widthBytes: 2, SampleImage.bytes) + EscPos.cut(0) + EscPos.status(4)
                       + EscPos.lineFeed + EscPos.processID("0007"))
        #expect(try line.read(1) == [0x12])
        #expect(try line.read(7) == EscPos.processIDResponse("0007"))
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.bitmap.rowStrings == SampleImage.rows)
        // The LF (0x0A) arrived as itself: raw mode, no CR added.
        #expect(printer.record.uncut.lengthInDots == 203 / 6)
        #expect(printer.record.connections == 0)
    }

    @Test("The line survives the agent closing and reopening it; a drop hangs it up for good")
    func reopenAndHangUp() async throws {
        let printer = try ZPLPrinterSimulator.serialLine()
        defer { printer.stop() }
        let path = try #require(printer.devicePath)
        var first: SerialLine? = try SerialLine(path: path)
        try first?.write(Array("~HS".utf8))
        #expect(try first?.read(1) == [0x02])
        first = nil

        let second = try SerialLine(path: path)
        printer.dropConnection(afterBytes: 3)
        try second.write(Array("^XA".utf8))
        _ = try await printer.record("the hang-up") { $0.bytesReceived == 6 && $0.commands.last == "^XA" }
        // Hung up: the line reports end of file (or EIO) rather than blocking.
        #expect(try second.readAfterHangUp() <= 0)
    }
}

/// The agent's side of the line: the slave opened, put in raw mode and
/// flushed, as a program must configure a real serial port.
final class SerialLine {
    let fd: Int32

    init(path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw ClientError.failed("open \(path)", errno) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw ClientError.failed("tcgetattr", errno) }
        cfmakeraw(&settings)
        cfsetspeed(&settings, speed_t(B115200))
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else { throw ClientError.failed("tcsetattr", errno) }
        // What an earlier user of the line left unread is still queued, as on a real port.
        tcflush(fd, TCIOFLUSH)
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw ClientError.failed("write", errno)
        }
    }

    /// Exactly `count` bytes; each wait for more is bounded by 10 s.
    func read(_ count: Int) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while received.count < count {
            var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&watched, 1, 10_000) == 1 else {
                throw ClientError.failed("poll (\(received.count) of \(count) bytes)", errno)
            }
            let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count - received.count) }
            guard got > 0 else { throw ClientError.failed("read", got == 0 ? 0 : errno) }
            received += buffer[0..<got]
        }
        return received
    }

    /// After a hang-up a read returns at once: 0 (end of file) or -1 (EIO).
    func readAfterHangUp() throws -> Int {
        var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&watched, 1, 10_000) == 1 else { throw ClientError.failed("poll: the line was not hung up", errno) }
        var byte: UInt8 = 0
        return Glibc.read(fd, &byte, 1)
    }
}
