import Logging
import Rendering
import Service
import Store
import Synchronization

/// What the agent gives back once its queues stay idle: SQLite's caches and
/// idle readers, the font maps no drawing is using (`FontMaps`, with their
/// glyph caches and font files), the heap's free pages (`malloc_trim`) and
/// the clean file pages start-up and work touched, and its mappings of the
/// code it shares with other processes (`CleanPages`).
///
/// Every role's loop asks for it when its queue has stayed dry; roles often
/// go idle together (at start, after a burst), and one release serves them
/// all, so a release asked for while one runs is skipped.
final class IdleMemoryRelease: Sendable {
    private let store: KioskStore
    private let logger: Logger
    private let running = Mutex(false)

    init(store: KioskStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    func run() async {
        let first = running.withLock { running in
            if running { return false }
            running = true
            return true
        }
        guard first else { return }
        defer { running.withLock { $0 = false } }
        await store.releaseMemory()
        FontMaps.shared.releaseIdle()
        let pages = CleanPages.release()
        // Last: reading smaps and pagemap for the file pages takes and frees
        // some 2 MB of heap, which a trim made before them left resident.
        MemoryTuning.releaseFreedMemory()
        logger.debug("""
            idle: gave back SQLite's caches, the heap's free memory and \(pages.residentBytes >> 20) MB of clean file pages \
            (\(pages.mappings) mappings), and unmapped \(pages.sharedCodeBytes >> 20) MB of code shared with other processes
            """)
    }
}
