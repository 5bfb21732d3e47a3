/// Why a text is not a raw printer's address. The message quotes the text,
/// says what is wrong with it and shows the form a good one takes, so an
/// administrator can fix a configuration file or a command line without docs.
public struct RawURIError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The text as given.
    public let uri: String
    /// What is wrong with it, in a few words ("port 70000 is past 65535").
    public let problem: String
    /// The scheme it was read as, which decides the example shown; nil when
    /// the scheme itself was not understood.
    public let scheme: RawPrinterURI.Scheme?

    public init(uri: String, problem: String, scheme: RawPrinterURI.Scheme?) {
        self.uri = uri
        self.problem = problem
        self.scheme = scheme
    }

    public var description: String {
        "'\(uri)' is not a raw printer address: \(problem). \(Self.advice(for: scheme))"
    }

    /// What a good address of the scheme looks like.
    static func advice(for scheme: RawPrinterURI.Scheme?) -> String {
        switch scheme {
        case .socket:
            return "Write it as socket://HOST or socket://HOST:PORT (the port is 9100 when left out), "
                + "for example socket://192.168.1.50:9100 or socket://[fd00::50]."
        case .usb:
            return "Write it as usb://MAKE/MODEL?serial=SERIAL, as `kioskprint printers discover` lists it, "
                + "for example usb://EPSON/TM-T88VI?serial=X5K1234567."
        case .serial:
            return "Write it as serial:///dev/ttyUSB0?baud=115200, optionally with &flow=rtscts|xonxoff|none, "
                + "&bits=7|8, &parity=none|even|odd and &stop=1|2; the baud is one of "
                + SerialSettings.supportedBauds.map(String.init).joined(separator: ", ") + "."
        case nil:
            return "Raw printers are written socket://HOST[:PORT], usb://MAKE/MODEL?serial=SERIAL "
                + "or serial:///dev/ttyUSB0?baud=115200."
        }
    }
}
