import Foundation
public import PrinterLanguages
public import PrintModel
public import Spooler
public import Store

/// What a role printer knows of its role when a client asks (a till's
/// status ask on the raw port, an ePOS-Print request's status): the language
/// its printers take, and the state of the printer its jobs go to now (the
/// primary, or the backup that took over), never asked of the printer
/// itself, whose answer would arrive in a connection nobody reads.
public struct RoleStatus: Sendable {
    public let store: KioskStore
    /// The spooler's live view of its printers (`Spooler.printerConditions`).
    public let conditions: @Sendable () -> [PrinterCondition]

    public init(store: KioskStore, conditions: @escaping @Sendable () -> [PrinterCondition]) {
        self.store = store; self.conditions = conditions
    }

    /// The role as a raw printer sees it now.
    public struct Snapshot: Sendable {
        /// The language the role's printers take; nil when none takes ESC/POS or ZPL.
        public var language: PrinterLanguage?
        /// The printer its jobs go to now; nil when none holds the role.
        public var printer: SavedPrinter?
        /// That printer's state in raw terms; offline when none holds the role or the store cannot be read.
        public var status: RawPrinterStatus
        /// Why no language could be chosen, for the log.
        public var problem: String?
    }

    public func snapshot(of role: Role) async -> Snapshot {
        let now: RoleNow
        do { now = try await RoleNow.read(role, store: store, conditions: conditions()) } catch {
            return Snapshot(status: RawPrinterStatus(offline: true),
                            problem: "the role's printers could not be read: \(store.explain(error))")
        }
        let printing = now.printing
        let language = ([printing].compactMap { $0 } + now.printers).lazy.compactMap(Self.language(of:)).first
        let status = printing.map {
            RawPrinterStatus(state: $0.capabilities.state, reasons: $0.capabilities.stateReasons, drawerOpen: $0.capabilities.drawerOpen)
        } ?? RawPrinterStatus(offline: true)
        var problem: String?
        if now.printers.isEmpty {
            problem = "no printer holds the role \(role) yet; save one with `kioskprint printers add URI --role \(role)`"
        } else if language == nil {
            problem = "no printer of the role \(role) takes ESC/POS or ZPL (\(now.printers.map { "\"\($0.name)\"" }.joined(separator: ", ")))"
        }
        return Snapshot(language: language, printer: printing, status: status, problem: problem)
    }

    /// The raw language `printer` takes: its own, or one it lists (LPrint lists ZPL).
    static func language(of printer: SavedPrinter) -> PrinterLanguage? {
        if let profile = printer.capabilities.rawProfile { return profile.language }
        return [PrinterLanguage.escpos, .zpl].first { printer.capabilities.documentFormats.contains($0.mimeType) }
    }
}
