public import PrintModel
public import Spooler
public import Store

/// A role's printers as they are now: each as saved, with what the spooler
/// met since laid over it, and the one its jobs go to. What the IPP role
/// printers describe and the raw ones answer a status ask from.
public struct RoleNow: Sendable {
    /// The role's printers, primary first, in their current state.
    public let printers: [SavedPrinter]

    /// The printer the role's jobs go to now: the primary, or the first
    /// printer that needs nobody while the primary does; nil when none holds the role.
    public var printing: SavedPrinter? { printers.first { $0.capabilities.attentionReasons.isEmpty } ?? printers.first }

    public init(printers: [SavedPrinter]) { self.printers = printers }

    /// Reads the role's printers and lays `conditions` over them.
    public static func read(_ role: Role, store: KioskStore, conditions: [PrinterCondition]) async throws -> RoleNow {
        let live = conditions.filter { $0.role == role }
        let printers = try await store.assignments(for: role).sorted { $0.position < $1.position }
            .map { RolePrinterServer.current($0.printer, live) }
        return RoleNow(printers: printers)
    }
}
