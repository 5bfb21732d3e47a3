import Foundation
import PrintModel
import Setup
import Simulator
import Store
import Testing

/// Anything on the store's network can answer as a printer. A real IPP
/// printer (ippeveprinter) that claims 0 dpi everywhere is reported, not
/// trusted: saving it is refused with what it claimed and what to do.
@Suite struct ImplausiblePrinterTests {
    @Test func aPrinterClaimingZeroDPIIsNotSavedAndSaysWhy() async throws {
        let lab = try await PrinterLab.shared()
        let attributes = SimulatedPrinter.receipt80mm.attributes
            .replacingOccurrences(of: "203dpi", with: "0dpi")
            .replacingOccurrences(of: "RS203", with: "RS0")
        #expect(attributes.contains("0dpi") && !attributes.contains("203dpi"))
        let printer = try await lab.startPrinter(
            SimulatedPrinter(name: "Zero DPI \(try Loopback.freePort())", kinds: [.receipt, .roll], attributes: attributes))
        defer { printer.stop() }
        let store = try KioskStore(path: FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-implausible-\(UUID().uuidString)/kioskprint.sqlite").path)

        do {
            _ = try await RoleSetup(store: store).add(uri: printer.uri, role: try Role("receipt"), as: .primary)
            Issue.record("a printer claiming 0 dpi was saved")
        } catch let error as SetupError {
            guard case .implausible(_, let uri, let problems) = error else {
                Issue.record("expected implausible, got \(error)")
                return
            }
            #expect(uri == printer.uri)
            #expect(problems.contains("a resolution of 0 dpi (outside 72 to 4800 dpi)"))
            #expect(error.description.contains("was not saved") && error.description.contains("--force"))
        }
        #expect(try await store.assignments().isEmpty, "nothing was saved")

        // --force saves it, but the 0 dpi is not kept: nothing divides by it later.
        let forced = try await RoleSetup(store: store).add(uri: printer.uri, role: try Role("receipt"), as: .primary, force: true)
        #expect(forced.assignment.printer.capabilities.resolutions.all.allSatisfy { $0.horizontal > 0 })
        #expect(forced.overridden.contains { $0.contains("figures no printer has") })
    }
}
