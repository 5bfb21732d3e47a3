import Foundation
import Testing
import PrintModel
import Simulator
@testable import Setup

/// The live list behind the picker: real Avahi, real printers contacted over IPP.
@Suite struct FinderTests {
    @Test func findsTheLabPrintersContactedAndFilteredByKind() async throws {
        let lab = try await PrinterLab.shared()
        let all = try await LabContactLock.shared.run { try await PrinterFinder().find(timeout: .seconds(15)) }
        #expect(all.complete)
        for name in lab.standardPrinters.map(\.name) {
            let listing = all.printers.first { $0.name == name }
            #expect(listing != nil, "\(name) was not found")
            #expect(listing?.capabilities != nil, "\(name) was not contacted")
            #expect(listing?.discovered.secure == true, "\(name) should be reached over ipps")
        }
        let running = try #require(lab.printer(.receipt80mm))
        let receipt = try #require(all.printers.first { $0.name == running.name })
        #expect(receipt.kinds == [.receipt, .roll])
        #expect(receipt.location == "Front counter")
        #expect(receipt.uri == "ipps://127.0.0.1:\(running.port)/ipp/print")

        let labels = try await LabContactLock.shared.run { try await PrinterFinder(kinds: [.label]).find(timeout: .seconds(15)) }
        #expect(labels.printers.contains { $0.name == lab.printer(.label4x6)?.name })
        #expect(labels.printers.allSatisfy { $0.kinds?.contains(.label) == true })
        #expect(labels.foundCount > labels.printers.count)
    }

    @Test(.timeLimit(.minutes(1))) func printersComeAndGoWhileTheListIsOpen() async throws {
        let lab = try await PrinterLab.shared()
        var sawIt = false
        var started: RunningPrinter?
        try await LabContactLock.shared.run {
            for try await snapshot in PrinterFinder(kinds: [.receipt]).snapshots() {
                let present = snapshot.printers.contains { $0.name == started?.name && $0.capabilities != nil }
                if snapshot.complete, started == nil {
                    started = try await lab.startPrinter(SimulatedPrinter.receipt58mm.named("KioskPrint Comes And Goes"))
                } else if present, !sawIt {
                    sawIt = true
                    started?.stop()
                } else if sawIt, !snapshot.printers.contains(where: { $0.name == started?.name }) {
                    break  // it appeared, then disappeared: the list followed it live
                }
            }
        }
        #expect(sawIt)
    }

    @Test func aPrinterThatDoesNotAnswerIsListedAsUnreachable() async throws {
        let lab = try await PrinterLab.shared()
        // An announcement with nothing behind it: a printer switched off since it last said goodbye.
        let ghostName = "KioskPrint Ghost (\(PrinterLab.processTag))"
        let ghost = try await lab.publish(name: ghostName, type: "_ipp._tcp", port: 9,
                                          txt: ["rp=ipp/print", "ty=Ghost 1", "kind=receipt,roll", "UUID=\(UUID().uuidString.lowercased())"])
        defer { ghost.stop() }
        let found = try await LabContactLock.shared.run {
            try await PrinterFinder(kinds: [.receipt], contactTimeout: .seconds(2)).find(timeout: .seconds(15))
        }
        let listing = try #require(found.printers.first { $0.discovered.serviceName == ghostName })
        #expect(listing.stateSummary == "unreachable")
        #expect(listing.kinds == [.receipt, .roll])  // from its TXT record, even though it never answered
        if case .failed(let message) = listing.contact {
            #expect(message.contains("127.0.0.1:9"))
        } else {
            Issue.record("the ghost printer was not marked failed: \(listing.contact)")
        }
    }
}

/// The rule that hides printers a role cannot use (shouldShowPrinter).
@Suite struct ListingFilterTests {
    func listing(txtKinds: String?, answered: Set<JobKind>?) -> PrinterListing {
        var txt = ["rp=ipp/print"]
        if let txtKinds { txt.append("kind=\(txtKinds)") }
        let printer = DiscoveredPrinter(serviceName: "P", secure: false, hostName: "p.local", address: "10.0.0.1",
                                        port: 631, txt: TXTRecord(strings: txt))
        let contact: PrinterListing.ContactState = answered.map { .answered(PrinterCapabilities(name: "P", kinds: $0)) } ?? .pending
        return PrinterListing(number: 1, discovered: printer, contact: contact)
    }

    @Test func kindsComeFromTheAnswerThenTheTXTRecord() {
        #expect(listing(txtKinds: nil, answered: nil).kinds == nil)
        #expect(listing(txtKinds: "label", answered: nil).kinds == [.label])
        #expect(listing(txtKinds: "label", answered: [.receipt]).kinds == [.receipt])
    }

    @Test func unknownKindsAreHeldBackUntilKnown() {
        #expect(!listing(txtKinds: nil, answered: nil).matches([.receipt]))
        #expect(listing(txtKinds: nil, answered: nil).matches([]))
        #expect(listing(txtKinds: nil, answered: [.roll]).matches([.receipt, .roll]))
        #expect(!listing(txtKinds: nil, answered: [.label]).matches([.receipt, .roll]))
    }
}
