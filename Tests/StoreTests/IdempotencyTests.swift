import Foundation
import PrintModel
import Store
import Testing

/// An HTTP request's Idempotency-Key is committed with the job it queued.
@Suite struct IdempotencyTests {
    @Test func aKeyHoldsOneJobAndFindsItAgainAfterAReopen() async throws {
        let path = temporaryStorePath()
        let store = try KioskStore(path: path)
        let key = IdempotencyKey(caller: "till-1", key: "sale-4711", requestSHA256: String(repeating: "ab", count: 32))
        let content = JobContent.template(name: "receipt", dataJSON: "{}")
        let first = try await store.enqueue(name: "Sale 4711", role: try Role("receipt"), content: content, idempotency: key)

        await #expect(throws: (any Error).self, "the database refuses a second job under the key") {
            try await store.enqueue(name: "Sale 4711", role: try Role("receipt"), content: content, idempotency: key)
        }
        let reopened = try KioskStore(path: path)
        let found = try #require(try await reopened.job(idempotencyKey: key.key))
        #expect(found.job.id == first.id && found.requestSHA256 == key.requestSHA256)
        #expect(try await reopened.jobs(.all, limit: 10).count == 1)

        // Keys are the caller's own: another token may use the same words.
        let other = IdempotencyKey(caller: "till-2", key: "sale-4711", requestSHA256: key.requestSHA256)
        #expect(try await reopened.job(idempotencyKey: other.key) == nil)
        let second = try await reopened.enqueue(name: "Sale 4711", role: try Role("receipt"), content: content, idempotency: other)
        #expect(second.id != first.id)
    }
}
