import PrintModel
import Store

/// Saved ipps printers without a pinned certificate (saved before pins
/// existed): the agent prints to them as before, taking any certificate, but
/// never pins one itself, since nobody is there to compare the fingerprint.
/// It says so at start, so that the administrator runs `printers check`.
enum UnpinnedPrinters {
    /// One warning per such printer; none when the saved printers cannot be read
    /// (the spooler reports that itself).
    static func warnings(in store: KioskStore) async -> [String] {
        guard let assignments = try? await store.assignments() else { return [] }
        var seen: Set<Int64> = []
        return assignments.map(\.printer)
            .filter { $0.presentsCertificate && $0.certificatePin == nil && seen.insert($0.id).inserted }
            .map { printer in
                "\(printer.name) (\(printer.uri)) was saved before certificates were pinned: the agent prints to it "
                    + "without checking that the printer answering is the one saved. Run `kioskprint printers check` "
                    + "once to pin the certificate it presents."
            }
    }
}
