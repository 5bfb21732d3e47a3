import CPangoCairo
import Foundation

/// Fontconfig's start-up (its configuration files and font caches, some
/// 7 ms here) begun on a thread of its own, for a short-lived process that
/// will lay text out: `kioskprint print` opens its database and reads the
/// role's printer meanwhile, on the other core, instead of waiting for it at
/// the first layout. `FcInit` is thread-safe: a layout that starts before it
/// has finished loads the configuration itself, and fontconfig keeps
/// whichever finished first.
/// Not for the agent: it would hold fontconfig's memory before any job.
public enum FontWarmUp {
    public static func begin() {
        let thread = Thread { _ = FcInit() }
        thread.name = "kioskprint-font-warm-up"
        thread.start()
    }
}
