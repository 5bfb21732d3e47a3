public import PrintModel
import Synchronization

/// Finds a saved printer at a new address: given the saved printer, the
/// URI it answers at now, or nil.
public typealias PrinterLocator = @Sendable (SavedPrinter) async -> String?

/// Asks the locator for an unreachable printer at most once per
/// `spacing`: a browse takes seconds, and a printer switched off must not
/// be browsed for before every retry.
final class Relocation: Sendable {
    let locate: PrinterLocator
    let spacing: Duration
    private let lastAsked = Mutex<[Int64: ContinuousClock.Instant]>([:])

    init(locate: @escaping PrinterLocator, spacing: Duration = .seconds(30)) {
        self.locate = locate; self.spacing = spacing
    }

    func find(_ printer: SavedPrinter, uuid: String) async -> String? {
        let now = ContinuousClock.now
        let due = lastAsked.withLock { asked in
            if let last = asked[printer.id], now - last < spacing { return false }
            asked[printer.id] = now
            return true
        }
        return due ? await locate(printer) : nil
    }
}
