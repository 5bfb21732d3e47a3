@testable import Memory
import Synchronization
import Testing

/// After each job the agent trims the heap only above its ceiling, and not
/// again until the memory has grown by a step since.
@Suite struct MemoryCeilingTests {
    /// Private resident bytes as a test sets them, and the trims counted.
    final class Process: Sendable {
        let resident = Mutex(0)
        let trims = Atomic(0)
        /// What a trim leaves resident.
        let afterTrim: Int
        init(afterTrim: Int) { self.afterTrim = afterTrim }
    }

    func ceiling(_ process: Process) -> MemoryCeiling {
        MemoryCeiling(ceiling: 48 << 20, step: 16 << 20, read: { process.resident.withLock { $0 } }, trim: {
            process.trims.add(1, ordering: .relaxed)
            process.resident.withLock { $0 = process.afterTrim }
        })
    }

    @Test func belowTheCeilingNothingIsTrimmed() {
        let process = Process(afterTrim: 10 << 20)
        process.resident.withLock { $0 = 47 << 20 }
        #expect(!ceiling(process).check())
        #expect(process.trims.load(ordering: .relaxed) == 0)
    }

    @Test func aboveItOneTrimThenOnlyAfterAStepMore() {
        // Live data above the ceiling: the trim leaves 60 MB.
        let process = Process(afterTrim: 60 << 20)
        let ceiling = ceiling(process)
        process.resident.withLock { $0 = 130 << 20 }
        #expect(ceiling.check())
        #expect(!ceiling.check())  // 60 MB: above the ceiling, but no step grown since
        process.resident.withLock { $0 = 70 << 20 }
        #expect(!ceiling.check())
        process.resident.withLock { $0 = 77 << 20 }
        #expect(ceiling.check())
        #expect(process.trims.load(ordering: .relaxed) == 2)
    }

    /// The real reading: 64 MB written into a fresh array shows in it.
    @Test func privateResidentMemoryCountsWrittenPages() throws {
        let before = try #require(MemoryCeiling.privateResidentBytes())
        let pages = [UInt8](repeating: 1, count: 64 << 20)
        let during = try #require(MemoryCeiling.privateResidentBytes())
        #expect(pages[pages.count - 1] == 1)
        #expect(during - before > 56 << 20)
    }
}
