/// The address of a raw printer, one driven with its command language
/// directly rather than through IPP:
///
/// - `socket://HOST[:PORT]`: a TCP socket, port 9100 unless given ("raw",
///   "JetDirect", "AppSocket"). HOST is an IPv4 address, an IPv6 address in
///   brackets (`[fe80::1%25eth0]` with a zone) or a host name.
/// - `usb://MAKE/MODEL?serial=SERIAL`: a USB printer-class device, found by
///   its IEEE 1284 device ID wherever it is plugged in; CUPS writes the same form.
/// - `serial:///dev/ttyUSB0?baud=115200&flow=rtscts`: a serial line. CUPS's
///   form `serial:/dev/ttyS0?baud=9600+flow=hard` is read too.
///
/// `description` prints the one canonical form, which parses back to the same value.
public enum RawPrinterURI: Sendable, Hashable, CustomStringConvertible {
    /// A TCP socket. The host is kept without brackets, lowercased, an IPv6
    /// zone after a plain `%`.
    case socket(host: String, port: Int)
    /// A USB printer, by who it is rather than where it is plugged in.
    case usb(USBPrinterIdentity)
    /// A serial line: its device path and line settings.
    case serial(path: String, settings: SerialSettings)

    /// The three kinds of raw address.
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        case socket, usb, serial
    }

    /// The port raw TCP printers listen on (HP JetDirect's, used by every maker).
    public static let defaultPort = 9100

    /// Reads a raw printer's address; spaces around it are ignored.
    public init(parsing text: String) throws(RawURIError) {
        self = try RawURIParser(text).parse()
    }

    /// Which kind of address this is.
    public var scheme: Scheme {
        switch self {
        case .socket: .socket
        case .usb: .usb
        case .serial: .serial
        }
    }

    /// The least time the link itself needs to carry `count` bytes: on a
    /// serial line, at its speed (a 190 KB receipt takes 16.6 s at 115200
    /// baud, over a minute at 19200), whatever the system has taken into its
    /// buffers meanwhile; zero on a socket or USB, which carry data far
    /// faster than a printer prints it.
    public func lineTime(for count: Int) -> Duration {
        guard case .serial(_, let settings) = self, count > 0 else { return .zero }
        return .milliseconds(Int((Double(count) / settings.bytesPerSecond * 1000).rounded(.up)))
    }

    /// `socket://192.168.1.50:9100`, `usb://EPSON/TM-T88VI?serial=X5K1234567`,
    /// `serial:///dev/ttyUSB0?baud=115200&flow=rtscts`. The port is always
    /// written; serial settings only where they differ from 8N1 without flow control.
    public var description: String {
        switch self {
        case .socket(let host, let port):
            let shownHost = host.contains(":") ? "[" + host.replacingPercent(with: "%25") + "]" : host
            return "socket://\(shownHost):\(port)"
        case .usb(let identity):
            var options: [String] = []
            if let serial = identity.serialNumber { options.append("serial=" + PercentEncoding.encode(serial)) }
            if let interface = identity.interface { options.append("interface=\(interface)") }
            let query = options.isEmpty ? "" : "?" + options.joined(separator: "&")
            return "usb://\(PercentEncoding.encode(identity.make))/\(PercentEncoding.encode(identity.model))\(query)"
        case .serial(let path, let settings):
            let shownPath = path.split(separator: "/", omittingEmptySubsequences: false)
                .map { PercentEncoding.encode(String($0)) }.joined(separator: "/")
            var options = ["baud=\(settings.baud)"]
            if settings.flowControl != .none { options.append("flow=\(settings.flowControl.rawValue)") }
            if settings.dataBits != 8 { options.append("bits=\(settings.dataBits)") }
            if settings.parity != .none { options.append("parity=\(settings.parity.rawValue)") }
            if settings.stopBits != 1 { options.append("stop=\(settings.stopBits)") }
            return "serial://\(shownPath)?" + options.joined(separator: "&")
        }
    }
}

extension String {
    /// The text with each `%` written as `replacement`.
    fileprivate func replacingPercent(with replacement: String) -> String {
        split(separator: "%", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
