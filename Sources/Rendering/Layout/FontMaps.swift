import CPangoCairo
import Synchronization

/// The Pango font maps every drawing of the process lays its text out with,
/// lent to one layout pass at a time and given back when its `TextContext`
/// goes, so that an idle agent can let all of them go (`releaseIdle`).
///
/// Pango's own default map is one per thread, kept as long as the thread:
/// the agent drew on whichever cooperative thread ran the job, so it held a
/// map on each, and each opened the fonts again (three mappings of
/// DejaVuSans.ttf in one process, which the kernel then counts as shared and
/// does not page out). A map is not safe to use from two threads at once;
/// a lent one is used by its pass alone, and may move between threads with
/// it, as an async job does.
public final class FontMaps: Sendable {
    /// The maps of every drawing in this process.
    public static let shared = FontMaps()

    /// Idle maps kept beyond this are let go when given back: a burst of
    /// concurrent passes would otherwise leave one map (and its fonts) each.
    let idleKept: Int

    private let idle = Mutex<[LentMap]>([])
    private let retiredMaps = Atomic<Int>(0)

    init(idleKept: Int = 2) { self.idleKept = idleKept }

    /// A map no other pass is using: an idle one (unless it has served its
    /// share of fonts, see `FontMapUsage`), or a new one.
    func lend() -> LentMap {
        while let map = idle.withLock({ $0.popLast() }) {
            if !map.usage.isFull { return map }
            g_object_unref(UnsafeMutableRawPointer(map.pointer))
            retiredMaps.add(1, ordering: .relaxed)
        }
        // A new map reads fontconfig's configuration: let a warm-up in progress finish it first.
        FontWarmUp.awaitEnd()
        return LentMap(pointer: pango_cairo_font_map_new())
    }

    /// Takes back a map lent by `lend`, once its pass is done with it.
    func giveBack(_ map: LentMap) {
        let kept = idle.withLock { idle in
            guard idle.count < idleKept else { return false }
            idle.append(map)
            return true
        }
        if !kept { g_object_unref(UnsafeMutableRawPointer(map.pointer)) }
    }

    /// Lets go of every map no pass is using, with the fonts, glyph caches
    /// and font files they hold; the next pass makes a new one (a few
    /// milliseconds of fontconfig matching). For an idle agent.
    public func releaseIdle() {
        let maps = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle
        }
        for map in maps { g_object_unref(UnsafeMutableRawPointer(map.pointer)) }
    }

    /// How many maps wait to be lent: what the tests look at.
    var idleCount: Int { idle.withLock { $0.count } }
    /// The idle maps' usage, newest last: what the tests look at.
    var idleUsage: [FontMapUsage] { idle.withLock { $0.map(\.usage) } }
    /// Maps retired for having served their share of fonts.
    var retired: Int { retiredMaps.load(ordering: .relaxed) }
}

/// A font map and the fonts it has served, lent to one pass at a time.
// Sendable by hand: the map is only touched by the pass that borrowed it (see `FontMaps`).
struct LentMap: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<PangoFontMap>
    let usage: FontMapUsage

    /// Owns `pointer`'s reference.
    init(pointer: UnsafeMutablePointer<PangoFontMap>) {
        self.pointer = pointer
        usage = FontMapUsage()
    }
}
