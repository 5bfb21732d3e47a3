import Foundation
import PrintModel
import Setup
import Simulator
import Spooler
import Store
import Templates
import Testing

/// Honest media against an independent real printer: LPrint (Debian's
/// `lprint`) holding a Zebra with 4x6 in labels, saved for the receipt role
/// with `--force`. Asked for an 80 mm receipt cut at its length, LPrint
/// substitutes its labels rather than refusing; that must not read as printed.
@Suite(.serialized) struct LPrintMediaTests {
    /// A database of the test's own with LPrint's printer as the receipt role's only printer.
    static func site(_ lprint: LPrintServer) async throws -> (KioskStore, EventLog) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-lprint-\(UUID().uuidString)/kioskprint.sqlite").path
        let store = try KioskStore(path: path)
        _ = try await RoleSetup(store: store).add(uri: lprint.uri, role: try Role("receipt"), as: .primary, force: true)
        return (store, EventLog())
    }

    static func receipt(_ store: KioskStore) async throws -> PrintJob {
        let sample = try #require(BuiltInTemplates.all.first { $0.name == "receipt" }?.sampleData)
        return try await store.enqueue(name: "Receipt 4711", role: try Role("receipt"),
                                       content: .template(name: "receipt", dataJSON: sample))
    }

    static func spooler(_ store: KioskStore, _ events: EventLog, rule: MediaChangeRule) throws -> Spooler {
        var configuration = SpoolLab.configuration
        configuration.mediaChanges = [try Role("receipt"): rule]
        return Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog(folders: [])),
                       configuration: configuration) { events.append($0) }
    }

    @Test func underFailAReceiptLPrintWouldPrintOnItsLabelsFailsAndNothingReachesIt() async throws {
        let lprint = try await LPrintServer.start()
        defer { lprint.stop() }
        let (store, events) = try await Self.site(lprint)
        let job = try await Self.spooler(store, events, rule: .fail).deliver(try await Self.receipt(store).id)

        #expect(job.state == .failed)
        #expect(lprint.received().isEmpty, "nothing was printed on the wrong paper")
        #expect(job.lastError?.contains("has na_index-4x6_4x6in loaded, not a roll") == true)
        #expect(job.lastError?.contains(#"media-changes = "warn" under [role.receipt]"#) == true, "it says what to do")
    }

    @Test func underWarnItPrintsOnTheLabelsAndTheChangeIsRecorded() async throws {
        let lprint = try await LPrintServer.start()
        defer { lprint.stop() }
        let (store, events) = try await Self.site(lprint)
        let job = try await Self.spooler(store, events, rule: .warn).deliver(try await Self.receipt(store).id)

        #expect(job.state == .completed, "\(job.lastError ?? "")\n\(lprint.logTail())")
        #expect(job.stateReasons.contains("printer-changed-media-col"))
        // Drawn on the loaded labels: the receipt runs over two 4x6 labels of
        // 812 x 1218 dots; LPrint stores each page as a graphic and prints
        // it with ^XG on its mark-sensed (^MNM) label stock.
        let file = try #require(lprint.received().first)
        let zpl = try String(contentsOf: file, encoding: .isoLatin1)
        #expect(zpl.components(separatedBy: "^XG").count - 1 == 2, "two labels")
        #expect(zpl.contains("^PW812") && zpl.contains("^MNM"))
        #expect(job.cutLengths == [15240, 15240] && job.impressionsCompleted == 2)
    }
}
