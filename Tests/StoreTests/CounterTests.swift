import Foundation
import Testing
@_spi(Testing) @testable import Store

/// Take-a-number counters: each number given out once, kept across reopening.
@Suite struct CounterTests {
    @Test func numbersCountUpPerCounterAndSurviveReopening() async throws {
        let path = try temporaryStorePath()
        let store = try KioskStore(path: path)
        #expect(try await store.currentNumber(of: "deli") == nil)
        #expect(try await store.nextNumber(of: "deli") == 1)
        #expect(try await store.nextNumber(of: "deli") == 2)
        #expect(try await store.nextNumber(of: "bakery") == 1)

        let reopened = try KioskStore(path: path)
        #expect(try await reopened.currentNumber(of: "deli") == 2)
        #expect(try await reopened.nextNumber(of: "deli") == 3)
    }

    @Test func aCounterWithALimitStartsAgainAtOne() async throws {
        let store = try KioskStore(path: try temporaryStorePath())
        var numbers: [Int] = []
        for _ in 0..<5 { numbers.append(try await store.nextNumber(of: "deli", wrappingAfter: 3)) }
        #expect(numbers == [1, 2, 3, 1, 2])
    }

    @Test func concurrentPressesNeverShareANumber() async throws {
        let store = try KioskStore(path: try temporaryStorePath())
        let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await store.nextNumber(of: "deli") } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(numbers.sorted() == Array(1...50))
    }
}
