import Foundation
import RawPrinters
public import PrintModel

/// The printer a channel talks to: its address and, when it is still saved,
/// the capabilities read when it was (a raw printer's language and model),
/// its id and the certificate an ipps printer must present.
public struct ChannelTarget: Hashable, Sendable {
    public var uri: String
    public var name: String
    public var capabilities: PrinterCapabilities?
    /// The saved printer's id, for the messages that tell an administrator what to run.
    public var printerID: Int64?
    /// The pinned certificate: an ipps printer presenting another is trouble, and gets nothing.
    public var certificatePin: CertificateFingerprint?

    public init(uri: String, name: String, capabilities: PrinterCapabilities? = nil, printerID: Int64? = nil,
                certificatePin: CertificateFingerprint? = nil) {
        self.uri = uri; self.name = name; self.capabilities = capabilities
        self.printerID = printerID; self.certificatePin = certificatePin
    }

    public init(_ printer: SavedPrinter) {
        self.init(uri: printer.uri, name: printer.name, capabilities: printer.capabilities, printerID: printer.id,
                  certificatePin: printer.certificatePin)
    }
}

/// Makes the channel for a printer, by its URI's scheme. The spooler asks
/// for one per exchange step; tests give their own maker to play back
/// scripted answers through the same runner.
public struct PrinterChannels: Sendable {
    private let make: @Sendable (ChannelTarget) -> any PrinterChannel

    public init(_ make: @escaping @Sendable (ChannelTarget) -> any PrinterChannel) { self.make = make }

    public func channel(for target: ChannelTarget) -> any PrinterChannel { make(target) }

    /// The real channels: IPP for `ipp://` and `ipps://`; the printer's own
    /// language for `socket://`, `usb://` and `serial://`. Each exchange is
    /// bounded by `timeout`.
    public static func standard(timeout: Duration) -> PrinterChannels {
        PrinterChannels { target in
            let scheme = target.uri.prefix { $0 != ":" }.lowercased()
            guard ["socket", "usb", "serial"].contains(scheme) else {
                return IPPChannel(uri: target.uri, name: target.name, timeout: timeout, printerID: target.printerID,
                                  pin: target.certificatePin)
            }
            let uri: RawPrinterURI
            do { uri = try RawPrinterURI(parsing: target.uri) } catch {
                return UnusableChannel(problem: PrinterProblem(text: "\(error)", reasons: ["unreachable"]))
            }
            guard let profile = target.capabilities?.rawProfile else {
                return UnusableChannel(problem: PrinterProblem(
                    text: "\(target.name) (\(target.uri)) was saved without its model, so its language and paper are not known. "
                        + "Save it again with --model (or --language, --width, --printable and --dpi).",
                    reasons: ["unreachable"]))
            }
            return RawChannel(session: RawPrinterSession(uri: uri, profile: profile, name: target.name, timeout: timeout))
        }
    }
}
