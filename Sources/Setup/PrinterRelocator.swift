import Discovery
import Foundation
public import PrintModel

/// Finds a saved printer again by its DNS-SD UUID when its address has
/// changed (DHCP gave it another after a router restart): the spooler asks
/// it when a printer it saved cannot be reached.
public struct PrinterRelocator: Sendable {
    /// How long one search browses before giving up.
    public var timeout: Duration

    public init(timeout: Duration = .seconds(3)) { self.timeout = timeout }

    /// Where the saved `printer` answers now, by its UUID. A printer saved
    /// under `ipps://` is looked for under ipps only: its pinned certificate
    /// can be checked there, and an `ipp://` address would drop the check.
    public func find(_ printer: SavedPrinter) async -> String? {
        guard let uuid = printer.uuid else { return nil }
        return await find(uuid: uuid, secureOnly: printer.presentsCertificate)
    }

    /// The URI under which a printer announcing `uuid` answers now, or nil
    /// when none is seen within the timeout (or Avahi cannot be asked).
    /// `secureOnly` passes over its `_ipp._tcp` announcement for the `_ipps._tcp` one.
    public func find(uuid: String, secureOnly: Bool = false) async -> String? {
        let wanted = uuid.lowercased()
        let browser = PrinterBrowser(serviceTypes: PrinterBrowser.allServiceTypes)
        let timeout = timeout
        return await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do {
                    for try await event in browser.events() {
                        switch event {
                        case .appeared(let printer), .changed(let printer):
                            if printer.txt.uuid?.lowercased() == wanted, printer.secure || !secureOnly { return printer.uri }
                        case .disappeared, .settled:
                            continue
                        }
                    }
                } catch {}
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
