internal import CRawIO
import Glibc

/// A printer on a serial line (RS-232, or a USB-serial adapter at
/// /dev/ttyUSB0), set raw with the URI's speed, framing and flow control.
public final class SerialLink: PrinterLink {
    public let uri: RawPrinterURI
    /// The terminal device, such as `/dev/ttyUSB0`.
    public let path: String
    /// The speed, framing and flow control applied to it.
    public let settings: SerialSettings
    private let descriptor: PollingDescriptor

    /// Opens `path` without making it the agent's controlling terminal,
    /// claims it (no other program may open it while the link is open; root
    /// excepted, as the kernel has it), applies `settings` and drops any
    /// bytes the printer sent before.
    public static func open(path: String, settings: SerialSettings) throws(LinkError) -> SerialLink {
        let uri = RawPrinterURI.serial(path: path, settings: settings)
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw LinkError(uri: uri, reason: USBLink.openFailure(errno, path: path)) }
        if let reason = SerialLine.configure(fd, path: path, settings: settings) {
            Glibc.close(fd)
            throw LinkError(uri: uri, reason: reason)
        }
        let descriptor = try PollingDescriptor(fd: fd, kind: .device, uri: uri)
        return SerialLink(uri: uri, path: path, settings: settings, descriptor: descriptor)
    }

    private init(uri: RawPrinterURI, path: String, settings: SerialSettings, descriptor: PollingDescriptor) {
        self.uri = uri
        self.path = path
        self.settings = settings
        self.descriptor = descriptor
    }

    public func write(_ bytes: [UInt8], stallWindow: Duration) throws(LinkError) {
        try descriptor.write(bytes, stallWindow: stallWindow)
    }

    public func unsentBytes() -> Int? { descriptor.unsentBytes() }

    public func read(atMost count: Int, deadline: ContinuousClock.Instant) throws(LinkError) -> [UInt8] {
        try descriptor.read(atMost: count, deadline: deadline)
    }

    public func close() { descriptor.close() }
}

/// termios for a printer's line: raw bytes both ways, no echo, no line
/// editing, no CR/LF translation, the modem lines ignored (CLOCAL) so an
/// adapter without DCD still works.
enum SerialLine {
    /// Applies `settings` to the terminal `fd`; the reason it failed, or nil.
    static func configure(_ fd: Int32, path: String, settings: SerialSettings) -> LinkError.Reason? {
        guard SerialSettings.supportedBauds.contains(settings.baud), (5...8).contains(settings.dataBits),
              (1...2).contains(settings.stopBits)
        else { return .settingsRefused(path: path, errno: EINVAL) }
        var options = termios()
        guard tcgetattr(fd, &options) == 0 else {
            return errno == ENOTTY || errno == EINVAL ? .notASerialLine(path: path) : .settingsRefused(path: path, errno: errno)
        }
        guard kp_tty_set_exclusive(fd) == 0 else { return .settingsRefused(path: path, errno: errno) }
        options = rawOptions(from: options, settings: settings)
        guard cfsetispeed(&options, speed(settings.baud)) == 0, cfsetospeed(&options, speed(settings.baud)) == 0 else {
            return .settingsRefused(path: path, errno: errno)
        }
        guard tcsetattr(fd, TCSANOW, &options) == 0 else { return .settingsRefused(path: path, errno: errno) }
        // tcsetattr succeeds if any part took; an adapter that cannot do the speed keeps its old one.
        var applied = termios()
        guard tcgetattr(fd, &applied) == 0, cfgetospeed(&applied) == speed(settings.baud) else {
            return .settingsRefused(path: path, errno: EINVAL)
        }
        _ = tcflush(fd, TCIFLUSH)  // stale status bytes from before would answer the next question
        return nil
    }

    /// `base` made raw (cfmakeraw) with the framing and flow control of
    /// `settings`; the speed is set apart, as it can fail.
    static func rawOptions(from base: termios, settings: SerialSettings) -> termios {
        var options = base
        cfmakeraw(&options)
        options.c_cflag &= ~tcflag_t(CSIZE | PARENB | PARODD | CSTOPB)
        options.c_cflag &= ~tcflag_t(CRTSCTS)
        options.c_cflag |= tcflag_t(CLOCAL | CREAD) | characterSize(settings.dataBits)
        switch settings.parity {
        case .none: break
        case .even: options.c_cflag |= tcflag_t(PARENB)
        case .odd: options.c_cflag |= tcflag_t(PARENB | PARODD)
        }
        if settings.stopBits == 2 { options.c_cflag |= tcflag_t(CSTOPB) }
        options.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        switch settings.flowControl {
        case .none: break
        case .rtsCTS: options.c_cflag |= tcflag_t(CRTSCTS)
        case .xonXoff: options.c_iflag |= tcflag_t(IXON | IXOFF)
        }
        return options
    }

    /// The termios speed constant for a baud rate in `SerialSettings.supportedBauds`.
    static func speed(_ baud: Int) -> speed_t {
        switch baud {
        case 1200: speed_t(B1200)
        case 1800: speed_t(B1800)
        case 2400: speed_t(B2400)
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        default: speed_t(B230400)
        }
    }

    static func characterSize(_ bits: Int) -> tcflag_t {
        switch bits {
        case 5: tcflag_t(CS5)
        case 6: tcflag_t(CS6)
        case 7: tcflag_t(CS7)
        default: tcflag_t(CS8)
        }
    }
}
