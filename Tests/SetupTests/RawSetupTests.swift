import Foundation
import Testing
import PrinterLanguages
import PrintModel
import RawPrinters
import Simulator
import Store
@testable import Setup

/// Adding and checking raw printers through `RoleSetup`, against the ESC/POS
/// and ZPL simulators on loopback; and the finder's contact of a raw DNS-SD service.
@Suite struct RawSetupTests {
    func setup() throws -> RoleSetup {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-rawsetup-\(UUID().uuidString)/kioskprint.sqlite").path
        return RoleSetup(store: try KioskStore(path: path), contactTimeout: .seconds(15))  // the simulator answers from this test process, which a full run stalls for seconds
    }

    @Test func anEscPosPrinterIsSavedWithItsCatalogProfileAndStatus() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        printer.update { $0.paperNearEnd = true }
        let added = try await setup().add(uri: printer.uri, role: try Role("receipt"), as: .primary, model: "tm-t20iii")
        let capabilities = added.assignment.printer.capabilities
        #expect(capabilities.rawProfile?.model == "TM-T20III")
        #expect(capabilities.rawProfile?.printableDots == 576)
        #expect(capabilities.kinds == [.receipt, .roll])
        // Near end is a warning: the printer stays idle.
        #expect(capabilities.state == .idle)
        #expect(capabilities.stateReasons.map(\.keyword) == ["media-low"])
        #expect(capabilities.drawerOpen == false)
        #expect(printer.record.statusQueries.count > 0)
    }

    @Test func aReceiptPrinterIsRefusedForLabelsByItsProfileBeforeItIsContacted() async throws {
        let setup = try setup()
        let uri = "socket://127.0.0.1:9"  // discard port: nothing listens there, yet the kinds refuse it first
        await #expect {
            _ = try await setup.add(uri: uri, role: try Role("label"), as: .primary, force: false, model: "TM-T20III")
        } throws: { error in
            "\(error)".contains("the role 'label' needs a label printer")
        }
        let label = try ZPLPrinterSimulator()
        defer { label.stop() }
        let added = try await setup.add(uri: label.uri, role: try Role("label"), as: .primary, model: "ZD420-203dpi")
        #expect(added.assignment.printer.capabilities.rawProfile?.language == .zpl)
        #expect(added.assignment.printer.capabilities.state == .idle)
    }

    @Test func checkReadsACoverOpenAndTheDrawerAndRecordsThem() async throws {
        let setup = try setup()
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        _ = try await setup.add(uri: printer.uri, role: try Role("receipt"), as: .primary,
                                overrides: ProfileOverrides(width: .millimetres(80), printableDots: 576, dpi: 203,
                                                            language: .escpos))
        printer.update { $0.coverOpen = true; $0.drawerOpen = true }
        let checked = try #require(try await setup.check().first)
        #expect(!checked.isReady)
        let fresh = try checked.result.get()
        #expect(fresh.state == .stopped)
        #expect(fresh.stateReasons.map(\.keyword) == ["cover-open"])
        #expect(fresh.drawerOpen == true)
        let saved = try #require(try await setup.store.assignments().first).printer.capabilities
        #expect(saved.drawerOpen == true && saved.state == .stopped)
    }

    @Test func noModelAndNoDescriptionSaysHow() async throws {
        await #expect {
            _ = try await setup().add(uri: "socket://127.0.0.1:9", role: try Role("receipt"), as: .primary)
        } throws: { error in
            let text = "\(error)"
            return text.contains("socket://127.0.0.1:9") && text.contains("--model TM-T88VI") && text.contains("--printable 576")
        }
    }

    @Test func aRawServiceIsContactedInItsLanguageOrListedAsUnknown() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        func found(_ txt: [String]) -> DiscoveredPrinter {
            DiscoveredPrinter(serviceName: "Counter", secure: false, raw: true, hostName: "tm.local", address: "127.0.0.1",
                              port: printer.port ?? 0, txt: TXTRecord(strings: txt))
        }
        let known = await PrinterFinder.contact(found(["ty=EPSON TM-T20III", "product=(TM-T20III)"]), timeout: .seconds(15))
        guard case .answered(let capabilities) = known else { Issue.record("not answered: \(known)"); return }
        #expect(capabilities.rawProfile?.model == "TM-T20III" && capabilities.state == .idle)
        #expect(found([]).uri == "socket://127.0.0.1:\(printer.port ?? 0)")

        let unknown = await PrinterFinder.contact(found(["ty=Acme Till 9"]), timeout: .seconds(15))
        guard case .modelUnknown(let message) = unknown else { Issue.record("not marked unknown: \(unknown)"); return }
        #expect(message.contains("Acme Till 9") && message.contains("--model"))
        #expect(PrinterListing(number: 1, discovered: found([]), contact: unknown).stateSummary
            == "raw, model unknown: add it with --model")
    }
}
