import CPangoCairo
import Dispatch
import Foundation
import Synchronization

/// Fontconfig's start-up (its configuration files and font caches, some
/// 7 ms here) begun on a thread of its own, for a short-lived process that
/// will lay text out: `kioskprint print` parses its arguments, opens its
/// database and reads the role's printer meanwhile, on the other core,
/// instead of waiting for it at the first layout.
///
/// The first layout waits for the warm-up to end (`FontMaps` asks before it
/// makes a font map). Left to itself, a layout that started before `FcInit`
/// had finished loaded the whole configuration again beside it (fontconfig
/// keeps whichever load ends first): seen under strace, as a slowed or
/// loaded machine would run it; unslowed, the warm-up ends first.
/// Not for the agent: it would hold fontconfig's memory before any job.
public enum FontWarmUp {
    private static let begun = Atomic<Bool>(false)
    /// Entered by `begin`, left when `FcInit` returns: empty when no warm-up began.
    private static let running = DispatchGroup()

    /// Starts the warm-up; a second call does nothing.
    public static func begin() {
        guard !begun.exchange(true, ordering: .relaxed) else { return }
        running.enter()
        let thread = Thread {
            _ = FcInit()
            running.leave()
        }
        thread.name = "kioskprint-font-warm-up"
        thread.start()
    }

    /// Returns once a warm-up that has begun has ended; at once when none
    /// began, as in the agent.
    static func awaitEnd() {
        // A blocking wait, on whichever thread lays text out first: the only
        // other way to the fonts is to load them again beside the warm-up.
        running.wait()
    }
}
