import Foundation
import IPP
import PrintModel

/// The paper a role printer offers, from its primary printer: the roll
/// (its width, with the cut range as the length a job may ask for) or the
/// sheets loaded, as IPP's media names and `media-col` collections.
struct RoleMedia: Sendable {
    /// The entries of `media-col-database`, the first the default.
    var entries: [Entry]
    /// `main-roll`, or the sheets' source.
    var sources: [String]

    struct Entry: Sendable {
        var name: String
        var width: Int
        /// One length for a sheet; the cut range for a roll.
        var lengths: ClosedRange<Int>
        var margins: Margins
        var source: String
        var type: String
        var isRoll: Bool { lengths.count > 1 }
    }

    /// The length a roll job is cut at when the client names none: long
    /// enough for a receipt's PDF page, as CUPS makes its page that size.
    static let rollDefaultLength = Length.millimetres(200)

    init(_ capabilities: PrinterCapabilities?) {
        let entries = capabilities.map(Self.entries) ?? []
        // No printer holds the role yet (or it reported no paper): an 80 mm roll, so that clients can still be set up.
        self.entries = entries.isEmpty ? [Entry(name: "roll_max_80x3000mm", width: 8000, lengths: 2500...300_000, margins: .none,
                                                source: "main-roll", type: "continuous")] : entries
        var sources: [String] = []
        for entry in self.entries where !sources.contains(entry.source) { sources.append(entry.source) }
        self.sources = sources
    }

    private static func entries(_ capabilities: PrinterCapabilities) -> [Entry] {
        let labels = capabilities.kinds.contains(.label)
        let rolls: [Entry] = capabilities.rolls.map { roll in
            Entry(name: "roll_max_\(figure(roll.width))x\(figure(roll.cutLengths.upperBound))mm",
                  width: roll.width.hundredthsOfMillimetre,
                  lengths: roll.cutLengths.lowerBound.hundredthsOfMillimetre...roll.cutLengths.upperBound.hundredthsOfMillimetre,
                  margins: roll.margins, source: roll.source ?? "main-roll", type: labels ? "labels-continuous" : "continuous")
        }
        let sheets: [Entry] = capabilities.sheets.map { sheet in
            Entry(name: sheet.name ?? "custom_\(figure(sheet.width))x\(figure(sheet.length))mm",
                  width: sheet.width.hundredthsOfMillimetre,
                  lengths: sheet.length.hundredthsOfMillimetre...sheet.length.hundredthsOfMillimetre,
                  margins: sheet.margins, source: sheet.source ?? "auto", type: sheet.type ?? (labels ? "labels" : "stationery"))
        }
        return rolls + sheets
    }

    /// `80` for 80 mm, `79.5` for 79.5 mm: the figure PWG media names use.
    static func figure(_ length: Length) -> String {
        let hundredths = length.hundredthsOfMillimetre
        if hundredths % 100 == 0 { return String(hundredths / 100) }
        var text = String(format: "%.2f", Double(hundredths) / 100)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// The length a job on `entry` gets when it names none.
    static func defaultLength(_ entry: Entry) -> Int {
        guard entry.isRoll else { return entry.lengths.lowerBound }
        return min(max(rollDefaultLength.hundredthsOfMillimetre, entry.lengths.lowerBound), entry.lengths.upperBound)
    }

    /// The default paper's name: a roll's is the size a job without `media` is cut to.
    var defaultName: String {
        let first = entries[0]
        guard first.isRoll else { return first.name }
        return "roll_current_\(Self.figure(Length(hundredthsOfMillimetre: first.width)))x"
            + "\(Self.figure(Length(hundredthsOfMillimetre: Self.defaultLength(first))))mm"
    }

    /// `media-supported`: each sheet, and a roll's largest and smallest cut and its default.
    var supportedNames: [String] {
        entries.flatMap { entry -> [String] in
            guard entry.isRoll else { return [entry.name] }
            let width = Self.figure(Length(hundredthsOfMillimetre: entry.width))
            return [entry.name, "roll_min_\(width)x\(Self.figure(Length(hundredthsOfMillimetre: entry.lengths.lowerBound)))mm",
                    "roll_current_\(width)x\(Self.figure(Length(hundredthsOfMillimetre: Self.defaultLength(entry))))mm"]
        }
    }

    /// `media-size` of an entry: a roll's y-dimension is its cut range.
    static func size(_ entry: Entry, length: Int? = nil) -> [IPPAttribute] {
        let y: IPPAttribute = if let length { .integer("y-dimension", length) } else if entry.isRoll {
            .range("y-dimension", entry.lengths)
        } else { .integer("y-dimension", entry.lengths.lowerBound) }
        return [.integer("x-dimension", entry.width), y]
    }

    /// One `media-col` collection for an entry.
    static func collection(_ entry: Entry, length: Int? = nil) -> [IPPAttribute] {
        [
            .integer("media-bottom-margin", entry.margins.bottom.hundredthsOfMillimetre),
            .integer("media-left-margin", entry.margins.left.hundredthsOfMillimetre),
            .integer("media-right-margin", entry.margins.right.hundredthsOfMillimetre),
            .collection("media-size", size(entry, length: length)),
            .keyword("media-source", entry.source),
            .integer("media-top-margin", entry.margins.top.hundredthsOfMillimetre),
            .keyword("media-type", entry.type),
        ]
    }

    /// The entry a requested size fits: the same width (within 1 mm, as
    /// clients round through points) and a length in its range.
    func entry(width: Int, length: Int) -> Entry? {
        entries.first { abs($0.width - width) <= 100 && $0.lengths.contains(length) }
    }

    /// The printer's attributes about paper.
    var attributes: [IPPAttribute] {
        let first = entries[0]
        let margins = { (edge: KeyPath<Margins, Length>) in
            IPPAttribute.integers("media-\(Self.edgeName(edge))-margin-supported",
                                  Array(Set(entries.map { $0.margins[keyPath: edge].hundredthsOfMillimetre })).sorted())
        }
        // Beside each roll's range, the size a job without one is cut to: CUPS 2.4's
        // `lpadmin -m everywhere` makes no queue for a printer with no fixed size at all.
        let rollDefaults = entries.filter(\.isRoll)
        return [
            .collections("media-col-database", entries.map { Self.collection($0) }
                + rollDefaults.map { Self.collection($0, length: Self.defaultLength($0)) }),
            .collection("media-col-default", Self.collection(first, length: Self.defaultLength(first))),
            .collections("media-col-ready", entries.map { Self.collection($0) }),
            .keyword("media-col-supported", "media-bottom-margin", "media-left-margin", "media-right-margin", "media-size",
                     "media-source", "media-top-margin", "media-type"),
            .keywords("media-default", [defaultName]),
            .keywords("media-ready", [defaultName]),
            .keywords("media-supported", supportedNames),
            .collections("media-size-supported", entries.map { Self.size($0) } + rollDefaults.map { Self.size($0, length: Self.defaultLength($0)) }),
            .keywords("media-source-supported", sources),
            .keywords("media-type-supported", Array(Set(entries.map(\.type))).sorted()),
            margins(\.bottom), margins(\.left), margins(\.right), margins(\.top),
        ]
    }

    private static func edgeName(_ edge: KeyPath<Margins, Length>) -> String {
        switch edge {
        case \Margins.bottom: "bottom"
        case \Margins.left: "left"
        case \Margins.right: "right"
        default: "top"
        }
    }
}
