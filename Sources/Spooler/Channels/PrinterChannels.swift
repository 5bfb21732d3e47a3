import Foundation
public import PrintModel

/// The printer a channel talks to: its address and, when it is still saved,
/// the capabilities read when it was (a raw printer's language and model).
public struct ChannelTarget: Hashable, Sendable {
    public var uri: String
    public var name: String
    public var capabilities: PrinterCapabilities?

    public init(uri: String, name: String, capabilities: PrinterCapabilities? = nil) {
        self.uri = uri; self.name = name; self.capabilities = capabilities
    }

    public init(_ printer: SavedPrinter) {
        self.init(uri: printer.uri, name: printer.name, capabilities: printer.capabilities)
    }
}

/// Makes the channel for a printer, by its URI's scheme. The spooler asks
/// for one per exchange step; tests give their own maker to play back
/// scripted answers through the same runner.
public struct PrinterChannels: Sendable {
    private let make: @Sendable (ChannelTarget) -> any PrinterChannel

    public init(_ make: @escaping @Sendable (ChannelTarget) -> any PrinterChannel) { self.make = make }

    public func channel(for target: ChannelTarget) -> any PrinterChannel { make(target) }

    /// The real channels: IPP for `ipp://` and `ipps://`, each exchange
    /// bounded by `timeout`.
    public static func standard(timeout: Duration) -> PrinterChannels {
        PrinterChannels { target in
            IPPChannel(uri: target.uri, name: target.name, timeout: timeout)
        }
    }
}
