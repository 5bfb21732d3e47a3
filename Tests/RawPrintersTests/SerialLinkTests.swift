import CRawIO
import Foundation
import Glibc
@testable import RawPrinters
import Simulator
import Testing

/// The serial link on a real pseudo-terminal, which stands in for a serial
/// line here (no serial hardware): termios works on it as on /dev/ttyUSB0.
@Suite("Serial links over a pseudo-terminal", .timeLimit(.minutes(1)))
struct SerialLinkTests {
    @Test func bytesGoBothWaysUnchanged() async throws {
        let terminal = try PseudoTerminal()
        let uri = try RawPrinterURI(parsing: "serial://\(terminal.path)?baud=115200&flow=rtscts")
        // Every byte value, line ends and XON/XOFF included: a raw line translates none of them.
        let job = (0..<1024).map { UInt8(truncatingIfNeeded: $0) }
        let status: [UInt8] = [0x12, 0x0D, 0x0A, 0x13, 0x11, 0x00, 0xFF]
        let (arrived, answered) = try await offloaded {
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5))
            defer { link.close() }
            try link.write(job, stallWindow: .seconds(10))
            let arrived = try terminal.read(count: job.count)
            try terminal.write(status)
            var answered: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(10)
            while answered.count < status.count, ContinuousClock.now < deadline {
                answered += try link.read(atMost: 64, deadline: deadline)
            }
            return (arrived, answered)
        }
        #expect(arrived == job)
        #expect(answered == status)
    }

    /// A pseudo-terminal takes about 12 KB at once, then nothing more until
    /// the printer has read nearly all of it: at 115200 baud a 48 KB job
    /// keeps the write waiting about a second at a time, four times over,
    /// while the line carries it all along. A stall window of a second, as a
    /// deadline for the whole write, cut it off.
    @Test func aJobLongerThanTheStallWindowGoesThroughASlowLine() async throws {
        let printer = try EscPosPrinterSimulator.serialLine(.init(bytesPerSecond: 11_520))
        defer { printer.stop() }
        let path = try #require(printer.devicePath)
        let uri = try RawPrinterURI(parsing: "serial://\(path)?baud=115200")
        let rows = 666  // 72 bytes each: 48 KB
        let job: [UInt8] = [0x1D, 0x76, 0x30, 0x00, 72, 0, UInt8(rows & 0xFF), UInt8(rows >> 8)]
            + [UInt8](repeating: 0x81, count: 72 * rows)
        let failure = try await offloaded { () -> LinkError? in
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5))
            defer { link.close() }
            do throws(LinkError) {
                try link.write(job, stallWindow: .seconds(1))
                return nil
            } catch {
                return error
            }
        }
        #expect(failure == nil, "\(failure?.description ?? "")")
        _ = try await printer.record("the whole job") { $0.bytesReceived == job.count }
    }

    @Test func theLineSettingsAreAppliedToTheTerminal() async throws {
        let terminal = try PseudoTerminal()
        let uri = try RawPrinterURI(parsing: "serial://\(terminal.path)?baud=9600&flow=xonxoff&stop=2")
        let link = try await AsyncPrinterLink.open(uri, deadline: .now + .seconds(5))
        defer { link.close() }
        let options = try terminal.settings()
        #expect(withUnsafePointer(to: options) { cfgetospeed($0) } == speed_t(B9600))
        #expect(withUnsafePointer(to: options) { cfgetispeed($0) } == speed_t(B9600))
        #expect(options.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(options.c_cflag & tcflag_t(CSTOPB) != 0)
        #expect(options.c_cflag & tcflag_t(CLOCAL | CREAD) == tcflag_t(CLOCAL | CREAD))
        #expect(options.c_cflag & tcflag_t(CRTSCTS) == 0)
        #expect(options.c_iflag & tcflag_t(IXON | IXOFF) == tcflag_t(IXON | IXOFF))
        // Raw: no line editing, echo, signals or output processing.
        #expect(options.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0)
        #expect(options.c_oflag & tcflag_t(OPOST) == 0)
        #expect(options.c_iflag & tcflag_t(ICRNL) == 0)
        // Claimed: no other program may open it meanwhile.
        #expect(kp_tty_is_exclusive(terminal.slave) == 1)
    }

    /// A pseudo-terminal always keeps 8 bits without parity (the kernel's
    /// pty_set_termios forces CS8 and clears PARENB), so the framing a real
    /// port would get is checked on the settings the link hands to tcsetattr.
    @Test func sevenBitsWithParityAreAskedFor() {
        let even = SerialLine.rawOptions(from: termios(), settings: SerialSettings(baud: 9600, dataBits: 7, parity: .even))
        #expect(even.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS7))
        #expect(even.c_cflag & tcflag_t(PARENB | PARODD) == tcflag_t(PARENB))
        #expect(even.c_cflag & tcflag_t(CSTOPB) == 0)
        let odd = SerialLine.rawOptions(from: termios(), settings: SerialSettings(baud: 9600, dataBits: 5, parity: .odd, stopBits: 2))
        #expect(odd.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS5))
        #expect(odd.c_cflag & tcflag_t(PARENB | PARODD) == tcflag_t(PARENB | PARODD))
        #expect(odd.c_cflag & tcflag_t(CSTOPB) != 0)
    }

    @Test func hardwareFlowControlAndEightBitsWithoutParity() async throws {
        let terminal = try PseudoTerminal()
        let uri = try RawPrinterURI(parsing: "serial://\(terminal.path)?baud=230400&flow=rtscts")
        let link = try await AsyncPrinterLink.open(uri, deadline: .now + .seconds(5))
        defer { link.close() }
        let options = try terminal.settings()
        #expect(withUnsafePointer(to: options) { cfgetospeed($0) } == speed_t(B230400))
        #expect(options.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(options.c_cflag & tcflag_t(PARENB | CSTOPB) == 0)
        #expect(options.c_cflag & tcflag_t(CRTSCTS) != 0)
        #expect(options.c_iflag & tcflag_t(IXON | IXOFF) == 0)
    }

    @Test func aReadWithNothingToReadReturnsEmptyAtTheDeadline() async throws {
        let terminal = try PseudoTerminal()
        let uri = try RawPrinterURI(parsing: "serial://\(terminal.path)?baud=38400")
        let link = try await AsyncPrinterLink.open(uri, deadline: .now + .seconds(5))
        defer { link.close() }
        #expect(try await link.readAnswer(limit: 8, deadline: .now + .milliseconds(200)) { _ in false }.bytes.isEmpty)
    }

    @Test func aMissingDeviceIsNamedWithWhereToLook() async throws {
        let uri = try RawPrinterURI(parsing: "serial:///dev/ttyUSB97?baud=9600")
        let error = try await linkError { _ = try RawLinks.open(uri, deadline: .now + .seconds(1)) }
        #expect(error.reason == .noSuchDevice(path: "/dev/ttyUSB97"))
        #expect(error.description.hasPrefix("Cannot open serial:///dev/ttyUSB97?baud=9600: /dev/ttyUSB97 does not exist."))
        #expect(error.description.contains("ls /dev/ttyUSB*"))
    }

    @Test func aFileThatIsNotATerminalIsRefused() async throws {
        let path = FileManager.default.temporaryDirectory.path + "/kioskprint-not-a-tty-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let uri = RawPrinterURI.serial(path: path, settings: SerialSettings(baud: 9600))
        let error = try await linkError { _ = try RawLinks.open(uri, deadline: .now + .seconds(1)) }
        #expect(error.reason == .notASerialLine(path: path))
        #expect(error.description.contains("\(path) is not a serial line"))
    }

    @Test func theOtherEndClosingIsAConnectionLost() async throws {
        var terminal: PseudoTerminal? = try PseudoTerminal()
        let uri = try RawPrinterURI(parsing: "serial://\(terminal!.path)?baud=9600")
        let link = try await AsyncPrinterLink.open(uri, deadline: .now + .seconds(5))
        defer { link.close() }
        terminal = nil  // the master goes, as an unplugged USB-serial adapter's line does
        await #expect {
            _ = try await link.readAnswer(limit: 8, deadline: .now + .seconds(10)) { _ in false }
        } throws: { error in
            guard let error = error as? LinkError, case .connectionLost = error.reason else { return false }
            return error.description.hasPrefix("\(uri) closed the connection")
        }
    }
}
