public import PrintModel
public import Store

/// A role's primary printer as read once from the store, `printer` nil when
/// no printer holds the role yet. `kioskprint print` reads it before it
/// queues (to ask the printer early and for its "no printer" note) and hands
/// it to the intake, so one job reads the role's printers once, not twice.
public struct RolePrimary: Sendable {
    public let role: Role
    public let printer: SavedPrinter?

    public init(role: Role, printer: SavedPrinter?) {
        self.role = role; self.printer = printer
    }
}

extension JobIntake {
    /// The role's primary printer, read now, to hand to `queueTemplate(primary:)`.
    public func readPrimary(of role: Role) async throws(IntakeError) -> RolePrimary {
        RolePrimary(role: role, printer: try await primaryPrinter(of: role))
    }
}
