import Foundation
import PrintModel
import Synchronization

/// The saved capabilities of the printers in use, decoded once. A printer's
/// capabilities are read with its role at every intake and every delivery,
/// and decoding the JSON (media lists, resolutions) each time was a steady
/// part of the spooler's CPU per receipt. Keyed by the stored text itself, so
/// a printer whose capabilities are saved again is decoded again, and no
/// entry can go stale.
enum DecodedCapabilities {
    /// A handful of printers per box; a bound keeps a box that saves many harmless.
    static let limit = 32

    private static let decoded = Mutex<[String: PrinterCapabilities]>([:])

    static func decode(_ json: String) throws -> PrinterCapabilities {
        if let known = decoded.withLock({ $0[json] }) { return known }
        let capabilities = try JSONDecoder().decode(PrinterCapabilities.self, from: Data(json.utf8))
        decoded.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[json] = capabilities
        }
        return capabilities
    }
}
