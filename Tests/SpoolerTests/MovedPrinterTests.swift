import Foundation
import IPP
import PrintModel
import Setup
import Simulator
import Spooler
import Store
import Templates
import Testing

/// A printer whose address changed (DHCP after a router restart) is found
/// again by its DNS-SD UUID, through the lab's real Avahi, and printed to at
/// its new address without waiting for a failover.
@Suite(.serialized, .timeLimit(.minutes(2))) struct MovedPrinterTests {
    @Test func aPrinterThatMovedIsFoundByItsUUIDSavedThereAndPrintedTo() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Moved Receipt")
        defer { printer.stop() }
        // Saved when it answered at another address, where nothing answers now.
        let uuid = UUID().uuidString.lowercased()
        var capabilities = try await PrinterContact.contact(uri: printer.uri, timeout: .seconds(5))
        capabilities.uuid = uuid
        let old = "ipp://127.0.0.1:\(try Loopback.freePort())/ipp/print"
        _ = try await lab.store.assign(uri: old, serviceName: nil, capabilities: capabilities,
                                       to: try Role("receipt"), as: .primary)
        // It announces itself under its UUID at its new address.
        let publication = try await lab.lab.publish(name: "Moved Receipt \(uuid.prefix(6))", port: printer.port,
                                                    txt: ["rp=ipp/print", "UUID=\(uuid)", "ty=KioskPrint Receipt"])
        defer { publication.stop() }

        let job = try await Self.relocatingSpooler(lab).deliver(try await lab.enqueue("receipt", role: "receipt", name: "After the move").id)

        #expect(job.state == .completed, "\(job.lastError ?? "")")
        let saved = try #require(try await lab.store.assignments(for: try Role("receipt")).first?.printer)
        #expect(saved.uri == "ipp://127.0.0.1:\(printer.port)/ipp/print")
        #expect(job.printer?.uri == saved.uri)
        #expect(lab.events.lines.contains { $0.contains("moved: it no longer answers at \(old) but announces itself at \(saved.uri)") })
        #expect(try await printer.receivedJobs(atLeast: 1).count == 1)
    }

    @Test func aPinnedPrinterThatMovedIsFoundUnderIPPSAndStaysPinned() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Moved Pinned")
        defer { printer.stop() }
        let uuid = UUID().uuidString.lowercased()
        var contacted = try await PrinterContact.contactWithCertificate(uri: printer.secureURI, timeout: .seconds(5))
        contacted.capabilities.uuid = uuid
        let pin = try #require(contacted.certificate)
        let old = "ipps://127.0.0.1:\(try Loopback.freePort())/ipp/print"
        _ = try await lab.store.assign(uri: old, serviceName: nil, capabilities: contacted.capabilities, certificate: pin,
                                       to: try Role("receipt"), as: .primary)
        // Announced under both types, plain IPP first: only the ipps address keeps the pin checked.
        let txt = ["rp=ipp/print", "UUID=\(uuid)", "ty=KioskPrint Receipt"]
        let plain = try await lab.lab.publish(name: "Moved Pinned \(uuid.prefix(6))", type: "_ipp._tcp", port: printer.port, txt: txt)
        let secure = try await lab.lab.publish(name: "Moved Pinned \(uuid.prefix(6))", type: "_ipps._tcp", port: printer.port, txt: txt)
        defer { plain.stop(); secure.stop() }

        let job = try await Self.relocatingSpooler(lab).deliver(try await lab.enqueue("receipt", role: "receipt", name: "Pinned move").id)

        #expect(job.state == .completed, "\(job.lastError ?? "")")
        let saved = try #require(try await lab.store.assignments(for: try Role("receipt")).first?.printer)
        #expect(saved.uri == "ipps://127.0.0.1:\(printer.port)/ipp/print")
        #expect(saved.certificatePin == pin)
        #expect(try await printer.receivedJobs(atLeast: 1).count == 1)
    }

    /// A spooler that finds moved printers through the lab's Avahi and never
    /// fails over: only the relocation can make a job print.
    private static func relocatingSpooler(_ lab: SpoolLab) -> Spooler {
        var configuration = SpoolLab.configuration
        configuration.failoverGrace = .seconds(3600)
        let events = lab.events
        return Spooler(store: lab.store, preparer: DocumentPreparer(catalog: TemplateCatalog()), configuration: configuration,
                       report: { events.append($0) },
                       locate: { saved in await PrinterRelocator(timeout: .seconds(10)).find(saved) })
    }
}
