import Service
import Testing

/// glibc's malloc as the agent tunes it, in this test process.
@Suite struct MemoryTuningTests {
    @Test func glibcTakesTheAgentsSettings() {
        // How many arenas the agent then has is read from its process
        // (malloc_info: two heaps, where the cap set in `run` left four); this
        // shared test process made its arenas long before.
        #expect(MemoryTuning.tuneAllocator())
    }
}
