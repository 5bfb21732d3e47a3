import Foundation
import GRDB
import Testing
import PrintModel
@testable import Store

/// Certificate pins in the database: kept with the printer, replaced only
/// when still the one read, and a database from before pins upgraded in place.
@Suite struct PinStoreTests {
    let receipt = try! Role("receipt")
    let first = CertificateFingerprint(String(repeating: "1a", count: 32))!
    let second = CertificateFingerprint(String(repeating: "2b", count: 32))!

    @Test func aSaveKeepsThePinAndSavingAnotherCertificateSaysWhichItReplaced() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let uri = "ipps://receipt/ipp/print"
        let saved = try await store.assign(uri: uri, serviceName: nil, capabilities: capabilities("Receipt"),
                                           certificate: first, to: receipt, as: .primary)
        #expect(saved.assignment.printer.certificatePin == first && saved.replacedPin == nil)
        // Saved again without a certificate (forced while unreachable): the pin stays.
        let forced = try await store.assign(uri: uri, serviceName: nil, capabilities: capabilities("Receipt"),
                                            to: try Role("coupon"), as: .primary)
        #expect(forced.assignment.printer.certificatePin == first && forced.replacedPin == nil)
        let again = try await store.assign(uri: uri, serviceName: nil, capabilities: capabilities("Receipt"),
                                           certificate: second, to: try Role("label"), as: .primary)
        #expect(again.assignment.printer.certificatePin == second && again.replacedPin == first)
    }

    @Test func aPinIsReplacedOnlyWhenItIsStillTheOneRead() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let id = try await store.assign(uri: "ipps://receipt/ipp/print", serviceName: nil, capabilities: capabilities("Receipt"),
                                        to: receipt, as: .primary).assignment.printer.id
        #expect(try await store.pinCertificate(printerID: id, to: first, replacing: nil))
        #expect(try await !store.pinCertificate(printerID: id, to: second, replacing: nil), "already pinned meanwhile")
        #expect(try await store.findPrinter(String(id)).certificatePin == first)
        #expect(try await store.pinCertificate(printerID: id, to: second, replacing: first))
        #expect(try await store.findPrinter(String(id)).certificatePin == second)
        #expect(try await !store.pinCertificate(printerID: 999, to: first, replacing: nil))
    }

    @Test func aDatabaseFromBeforePinsIsUpgradedWithItsPrintersUnpinned() async throws {
        let path = temporaryStorePath()
        try KioskStore.prepareFile(at: path)
        let old = try DatabasePool(path: path)
        try KioskStore.migrator.migrate(old, upTo: "v5-job-drawer")
        let json = try PrinterRecord.encode(capabilities("Old"))
        try await old.write { db in
            try db.execute(sql: """
                INSERT INTO printer (uri, name, capabilities, addedAt, contactedAt)
                VALUES ('ipps://old/ipp/print', 'Old', ?, '2025-01-01 00:00:00.000', '2025-01-01 00:00:00.000')
                """, arguments: [json])
        }
        try old.close()

        let store = try KioskStore(path: path)
        let printer = try await store.findPrinter("ipps://old/ipp/print")
        #expect(printer.certificatePin == nil)
        #expect(printer.presentsCertificate)
    }
}
