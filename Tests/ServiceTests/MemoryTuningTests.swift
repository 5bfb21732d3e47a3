import Glibc
import Service
import Testing

/// glibc's malloc as the agent tunes it, in this test process.
@Suite struct MemoryTuningTests {
    @Test func glibcTakesTheAgentsSettings() {
        // mallopt refuses a threshold above 32 MB or an arena count below 1. Whether a
        // block then gets its own mapping also depends on the arenas' free chunks, which
        // this shared test process cannot control; the agent bench measures the effect.
        #expect(MemoryTuning.tuneAllocator())
        #expect(MemoryTuning.ownMappingFrom <= 128 << 10, "below glibc's own starting threshold")
    }
}
