public import PrintModel
public import Store

/// The cash drawer of a role: wired to the drawer port of the role's
/// receipt printer, opened with a pulse through that printer's channel.
/// `kioskprint drawer open ROLE` and a button's `drawer = "ROLE"` use it.
public struct CashDrawer: Sendable {
    public let store: KioskStore
    public let channels: PrinterChannels

    public init(store: KioskStore, channels: PrinterChannels = .standard(timeout: .seconds(5))) {
        self.store = store; self.channels = channels
    }

    /// What opening the drawer did, and on which printer.
    public struct Opened: Sendable, Equatable {
        public var printer: JobPrinter
        public var outcome: DrawerOutcome
    }

    /// Opens the drawer on the role's primary printer: the drawer is wired
    /// to one printer, so a backup's port has no drawer behind it.
    public func open(role: Role) async throws(CashDrawerError) -> Opened {
        let assignments: [RoleAssignment]
        do { assignments = try await store.assignments(for: role) } catch { throw .store("\(error)") }
        guard let primary = assignments.first(where: \.isPrimary)?.printer else { throw .noPrinter(role) }
        let outcome = await channels.channel(for: ChannelTarget(primary)).openDrawer()
        return Opened(printer: JobPrinter(primary), outcome: outcome)
    }
}

/// Why no drawer could be asked to open.
public enum CashDrawerError: Error, Sendable, Equatable, CustomStringConvertible {
    case noPrinter(Role)
    case store(String)

    public var description: String {
        switch self {
        case .noPrinter(let role):
            "No printer holds the role \"\(role)\", so there is no drawer to open. "
                + "Save the receipt printer the drawer is wired to: kioskprint printers add URI --role \(role)."
        case .store(let detail): "The saved printers could not be read: \(detail)"
        }
    }
}
