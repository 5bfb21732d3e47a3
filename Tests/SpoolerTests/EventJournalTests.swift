import Foundation
import PrintModel
import Spooler
import Store
import Testing

/// The journal behind `GET /v1/events` keeps each job's state, not its data.
@Suite struct EventJournalTests {
    @Test func eventsAreKeptWithoutTheJobsData() async throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-journal-\(UUID().uuidString)/kioskprint.sqlite").path
        let store = try KioskStore(path: path)
        let data = #"{"items": [\#(Array(repeating: #"{"name": "Tea", "price": "2.50"}"#, count: 100).joined(separator: ","))]}"#
        let job = try await store.enqueue(name: "Receipt 1", role: try Role("receipt"), content: .template(name: "receipt", dataJSON: data))
        let journal = EventJournal(capacity: 10)
        journal.publish(.finished(job))
        let kept = try #require(journal.subscribe(after: "x.0").missed.first)
        guard case .finished(let stored) = kept.event else { Issue.record("\(kept.event)"); return }
        #expect(stored.content == .template(name: "receipt", dataJSON: "{}"))
        #expect(stored.id == job.id && stored.state == job.state && stored.name == job.name)
    }
}
