import CPangoCairo
import Foundation
import Synchronization

/// Fontconfig's start-up (its configuration files and font caches, some
/// 7 ms here) begun on a thread of its own, for a short-lived process that
/// will lay text out: `kioskprint print` parses its arguments, opens its
/// database and reads the role's printer meanwhile, on the other core,
/// instead of waiting for it at the first layout. `FcInit` is thread-safe: a
/// layout that starts before it has finished loads the configuration itself,
/// and fontconfig keeps whichever finished first.
/// Not for the agent: it would hold fontconfig's memory before any job.
public enum FontWarmUp {
    private static let begun = Atomic<Bool>(false)

    /// Starts the warm-up; a second call does nothing.
    public static func begin() {
        guard !begun.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { _ = FcInit() }
        thread.name = "kioskprint-font-warm-up"
        thread.start()
    }
}
