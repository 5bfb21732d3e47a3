/// What a simulated receipt printer's sensors report, set by a test: the
/// same sensors whatever language the printer speaks. Each simulator answers
/// its status requests from it in its own bytes: ESC/POS's `DLE EOT`, `GS a`
/// and `GS r` (`EscPosPrinterState`), Star's automatic status (`StarPrinterState`).
public struct ReceiptPrinterState: Sendable, Hashable {
    /// The roll is empty: the printer stops and goes offline.
    public var paperOut: Bool
    /// The roll is nearly empty: a warning only, printing goes on.
    public var paperNearEnd: Bool
    /// The cover is open: the printer stops and goes offline.
    public var coverOpen: Bool
    /// Offline for another reason (for example taken offline at its panel).
    public var offline: Bool
    /// The cash drawer is open. ESC/POS reports it as pin 3 of the drawer
    /// kick-out connector reading HIGH, Star as its compulsion switch closed;
    /// which level means "open" depends on the drawer's switch.
    public var drawerOpen: Bool
    /// The autocutter jammed: the printer stops until the error is cleared.
    public var cutterError: Bool

    public init(paperOut: Bool = false, paperNearEnd: Bool = false, coverOpen: Bool = false, offline: Bool = false,
                drawerOpen: Bool = false, cutterError: Bool = false) {
        self.paperOut = paperOut; self.paperNearEnd = paperNearEnd; self.coverOpen = coverOpen
        self.offline = offline; self.drawerOpen = drawerOpen; self.cutterError = cutterError
    }

    /// A printer with paper, cover closed, online, drawer closed.
    public static let ready = ReceiptPrinterState()

    /// Whether the printer prints: it stops on paper out, an open cover, an
    /// error, or when offline, and then executes only real-time commands.
    public var canPrint: Bool { !paperOut && !coverOpen && !offline && !cutterError }
}
