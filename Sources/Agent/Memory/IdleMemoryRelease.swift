import Logging
import Rendering
import Memory
import Store
import Synchronization

/// What the agent gives back once its queues stay idle: SQLite's caches and
/// idle readers, the font maps no drawing is using but the last one
/// (`FontMaps`, with their glyph caches and font files), the heap's free
/// pages (`malloc_trim`), and the clean file pages start-up and work touched
/// with its mappings of the code it shares with other processes (`CleanPages`).
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
        // The last drawing's map stays: a kiosk prints now and then, and its next
        // receipt would otherwise match, load and draw its fonts again (13.3 to 13.9
        // ms of CPU for the first receipt after the release, against 18.1 to 18.7).
        FontMaps.shared.releaseIdle(keepingNewest: 1)
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
