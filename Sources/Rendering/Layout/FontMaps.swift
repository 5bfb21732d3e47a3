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

    /// A map no other pass is using, at `dpi`: an idle one (unless it has
    /// served its share of fonts, see `FontMapUsage`), one last used at that
    /// resolution first, or a new one.
    ///
    /// The map's own resolution is the pass's, not Pango's default 96 dpi:
    /// Pango measures a font's metrics (line height, approximate widths) with
    /// a context of the map's making, at the map's resolution. At 96 dpi that
    /// context asked fontconfig for a pattern of its own for every style
    /// (the same pixel size written as another point size), a second match
    /// and sort, each on a thread Pango starts for it; at the pass's
    /// resolution it finds the pattern the text already matched.
    func lend(dpi: Int) -> LentMap {
        while let map = idle.withLock({ idle in
            idle.lastIndex { $0.dpi == dpi }.map { idle.remove(at: $0) } ?? idle.popLast()
        }) {
            if !map.usage.isFull { return map.dpi == dpi ? map : map.moved(to: dpi) }
            map.free()
            retiredMaps.add(1, ordering: .relaxed)
        }
        // A new map reads fontconfig's configuration: let a warm-up in progress finish it first.
        FontWarmUp.awaitEnd()
        return LentMap(pointer: pango_cairo_font_map_new(), dpi: dpi)
    }

    /// Takes back a map lent by `lend`, once its pass is done with it.
    func giveBack(_ map: LentMap) {
        let kept = idle.withLock { idle in
            guard idle.count < idleKept else { return false }
            idle.append(map)
            return true
        }
        if !kept { map.free() }
    }

    /// Lets go of the maps no pass is using, with the fonts, glyph caches,
    /// font files and kept layouts they hold, but for the `kept` given back
    /// last; a pass without a map makes a new one (a few milliseconds of
    /// fontconfig matching, font loading and glyph drawing). For an idle agent.
    public func releaseIdle(keepingNewest kept: Int = 0) {
        let maps = idle.withLock { idle in
            let older = Array(idle.dropLast(max(0, kept)))
            idle.removeFirst(older.count)
            return older
        }
        for map in maps { map.free() }
    }

    // What the tests look at: here, not in a test extension, because they read
    // `idle` and `retiredMaps`, kept private so that only `lend`, `giveBack`
    // and `releaseIdle` change them.
    /// For tests: how many maps wait to be lent.
    package var idleCount: Int { idle.withLock { $0.count } }
    /// For tests: the idle maps' resolutions, newest last.
    package var idleResolutions: [Int] { idle.withLock { $0.map(\.dpi) } }
    /// For tests: the idle maps' usage, newest last (internal, as `FontMapUsage` is).
    var idleUsage: [FontMapUsage] { idle.withLock { $0.map(\.usage) } }
    /// For tests: maps retired for having served their share of fonts.
    package var retired: Int { retiredMaps.load(ordering: .relaxed) }
    /// For tests: the layouts the idle maps keep, newest map last.
    package var idleLayoutCounts: [Int] { idle.withLock { $0.map(\.layouts.count) } }
}

/// A font map, its resolution, the fonts it has served, and the Pango
/// context and layouts its passes share, lent to one pass at a time.
// Sendable by hand: the map, its context and its layouts are only touched by the pass that borrowed it (see `FontMaps`).
struct LentMap: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<PangoFontMap>
    let usage: FontMapUsage
    /// The map's resolution (`pango_cairo_font_map_set_resolution`).
    let dpi: Int
    /// Paragraphs laid out by this map's passes, at `dpi`, with the Pango
    /// context every pass lays its text out with (`LayoutCache.context`).
    let layouts: LayoutCache
    /// The context every pass lays its text out with, kept with the map so
    /// that a kept layout stays valid from one pass to the next.
    var context: OpaquePointer { layouts.context }

    /// Owns `pointer`'s reference, and sets the map's resolution to `dpi`.
    init(pointer: UnsafeMutablePointer<PangoFontMap>, dpi: Int) {
        self.init(pointer: pointer, usage: FontMapUsage(), dpi: dpi)
    }

    private init(pointer: UnsafeMutablePointer<PangoFontMap>, usage: FontMapUsage, dpi: Int) {
        self.pointer = pointer
        self.usage = usage
        self.dpi = dpi
        layouts = LayoutCache(fontMap: pointer)
        pango_cairo_font_map_set_resolution(OpaquePointer(pointer), Double(dpi))
    }

    /// The same map at another resolution: Pango empties its caches of
    /// fonts and patterns, which were for the old one; the kept layouts and
    /// their context go with the old value.
    func moved(to dpi: Int) -> LentMap { LentMap(pointer: pointer, usage: usage, dpi: dpi) }

    /// Lets go of the map; its kept layouts and their context go with the value.
    func free() { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}
