import Foundation
import PrintModel
import Store
import Testing

/// Lists read a page at a time: the newest few and how many there are.
@Suite struct JobPageTests {
    @Test func aPageIsTheNewestJobsOldestFirstAndPagesBackByID() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let receipt = try Role("receipt"), coupon = try Role("coupon")
        var ids: [JobID] = []
        for number in 1...12 {
            let job = try await store.enqueue(name: "Job \(number)", role: number % 3 == 0 ? coupon : receipt,
                                              content: receiptContent(number), at: t0)
            ids.append(job.id)
        }
        _ = try await store.requestCancel(ids[0], at: t0)  // canceled: no longer unfinished

        let newest = try await store.jobs(.all, limit: 5)
        #expect(newest.map(\.id) == Array(ids[7...11]))
        let back = try await store.jobs(.all, limit: 5, before: newest.first?.id)
        #expect(back.map(\.id) == Array(ids[2...6]))
        let last = try await store.jobs(.all, limit: 5, before: back.first?.id)
        #expect(last.map(\.id) == [ids[0], ids[1]])

        #expect(try await store.jobs(.unfinished, limit: 100).count == 11)
        #expect(try await store.jobs(.states([.canceled]), limit: 100).map(\.id) == [ids[0]])
        #expect(try await store.jobs(.unfinished, role: coupon, limit: 100).allSatisfy { $0.role == coupon })
        #expect(try await store.jobCounts(.unfinished) == ["receipt": 7, "coupon": 4])
        #expect(try await store.jobCounts(.all) == ["receipt": 8, "coupon": 4])
        #expect(try await store.jobCounts(.states([])) == [:])
    }
}
