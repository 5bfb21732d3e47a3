import PrintModel

/// Reads rolls, sheets and loaded media out of Get-Printer-Attributes.
///
/// Where the printer describes its media, in order of preference:
/// `media-col-database` (sizes with their own margins, source and type),
/// else `media-size-supported` with the printer-wide
/// `media-*-margin-supported`, else the self-describing names of
/// `media-supported`. A `custom_min_`/`custom_max_` pair in `media-supported`
/// (or PWG's `roll_min_`/`roll_max_`) describes a roll when the printer
/// reports no roll otherwise.
struct MediaMapping {
    var rolls: [RollMedia] = []
    var sheets: [SheetMedia] = []
    var ready: [String] = []

    init(_ attributes: [IPPAttribute]) {
        let names = attributes.strings("media-supported").compactMap(PWGMediaSize.init)
        let fixedNames = names.filter { !$0.isRangeBound }
        let printerMargins = Self.printerWideMargins(attributes)

        for entry in attributes.collections("media-col-database").compactMap({ MediaCol($0) }) {
            add(entry, defaultMargins: printerMargins, names: fixedNames)
        }
        if rolls.isEmpty && sheets.isEmpty {
            for size in attributes.collections("media-size-supported") {
                guard let entry = MediaCol(size: size) else { continue }
                add(entry, defaultMargins: printerMargins, names: fixedNames)
            }
        }
        if rolls.isEmpty && sheets.isEmpty {
            for name in fixedNames {
                append(SheetMedia(name: name.name, width: name.width, length: name.length, margins: printerMargins))
            }
        }
        addCustomRange(names, attributes: attributes, margins: printerMargins)

        var readyNames: [String] = []
        for entry in attributes.collections("media-col-ready").compactMap({ MediaCol($0) }) {
            readyNames.append(Self.readyName(entry, names: fixedNames))
        }
        if readyNames.isEmpty { readyNames = attributes.strings("media-ready") }
        ready = readyNames.filter { !$0.isEmpty }.uniqued()
    }

    private mutating func add(_ entry: MediaCol, defaultMargins: Margins, names: [PWGMediaSize]) {
        let margins = entry.margins(default: defaultMargins)
        switch (entry.width, entry.length) {
        case (.fixed(let width), .fixed(let length)):
            let name = entry.sizeName ?? names.first { $0.matches(width: width, length: length) }?.name
            append(SheetMedia(name: name, width: width, length: length, margins: margins,
                              source: entry.source, type: entry.type))
        case (.fixed(let width), .range(let cut)):
            append(RollMedia(width: width, cutLengths: cut, margins: margins, source: entry.source,
                             name: entry.sizeName))
        case (.range(let widths), .range(let cut)) where entry.source?.contains("roll") == true:
            // A roll holder that takes several widths: the widest is what fits.
            append(RollMedia(width: widths.upperBound, cutLengths: cut, margins: margins, source: entry.source,
                             name: entry.sizeName))
        default:
            // A custom-size range of a sheet printer, or a range of widths
            // with a fixed length: no single sheet, no roll.
            break
        }
    }

    /// `custom_min_80x25mm` + `custom_max_80x3000mm` (or `roll_min_...` +
    /// `roll_max_...`): the roll itself when nothing else reported one, else
    /// only the name of the roll of that width.
    private mutating func addCustomRange(_ names: [PWGMediaSize], attributes: [IPPAttribute], margins: Margins) {
        // A roll pair wins over a custom pair: it says "roll" outright.
        let pairs = [names.filter(\.isRoll), names.filter { !$0.isRoll }]
        guard let pair = pairs.lazy.compactMap({ bounds -> (PWGMediaSize, PWGMediaSize)? in
            guard let low = bounds.first(where: \.isRangeMinimum),
                  let high = bounds.first(where: \.isRangeMaximum) else { return nil }
            return (low, high)
        }).first else { return }
        let (low, high) = pair
        let rollSource = attributes.strings("media-source-supported").first { $0.contains("roll") }
        // A custom range of one width (to half a millimetre: names round) is a
        // roll; of several widths, only on a printer with a roll source (a
        // sheet printer's custom_min_3x5in..custom_max_8.5x14in is not).
        let sameWidth = abs(low.width.hundredthsOfMillimetre - high.width.hundredthsOfMillimetre) <= 50
        guard low.isRoll || sameWidth || rollSource != nil, low.length <= high.length else { return }
        if let index = rolls.firstIndex(where: {
            abs($0.width.hundredthsOfMillimetre - high.width.hundredthsOfMillimetre) <= 50
        }) {
            if rolls[index].name == nil { rolls[index].name = low.name }
            return
        }
        guard rolls.isEmpty else { return }
        append(RollMedia(width: high.width, cutLengths: low.length...high.length, margins: margins,
                         source: rollSource, name: low.name))
    }

    private mutating func append(_ roll: RollMedia) { if !rolls.contains(roll) { rolls.append(roll) } }
    private mutating func append(_ sheet: SheetMedia) { if !sheets.contains(sheet) { sheets.append(sheet) } }

    /// The smallest of each `media-*-margin-supported`: the best the printer
    /// can do, for sizes that come without their own margins.
    private static func printerWideMargins(_ attributes: [IPPAttribute]) -> Margins {
        func smallest(_ edge: String) -> Length {
            let values = attributes.ints("media-\(edge)-margin-supported").filter { $0 >= 0 }
            return Length(hundredthsOfMillimetre: values.min() ?? 0)
        }
        return Margins(top: smallest("top"), bottom: smallest("bottom"), left: smallest("left"),
                       right: smallest("right"))
    }

    /// What to call a loaded medium: its `media-size-name`, the matching
    /// `media-supported` name, else a description (`80 mm roll`, `100 x 150 mm`).
    private static func readyName(_ entry: MediaCol, names: [PWGMediaSize]) -> String {
        if let name = entry.sizeName { return name }
        switch (entry.width, entry.length) {
        case (.fixed(let width), .fixed(let length)):
            if let name = names.first(where: { $0.matches(width: width, length: length) }) { return name.name }
            return "\(width.millimetreFigure) x \(length.millimetreFigure) mm"
        case (_, .range):
            return "\(entry.width.largest.millimetreFigure) mm roll"
        default:
            return ""
        }
    }
}

/// One `media-col` value (a `media-col-database` or `media-col-ready`
/// entry), or a bare `media-size-supported` size.
struct MediaCol {
    enum Dimension {
        case fixed(Length), range(ClosedRange<Length>)

        var largest: Length {
            switch self {
            case .fixed(let size): size
            case .range(let sizes): sizes.upperBound
            }
        }
    }

    var width: Dimension
    var length: Dimension
    var top: Length?, bottom: Length?, left: Length?, right: Length?
    var source: String?
    var type: String?
    var sizeName: String?

    /// From a media-col collection; nil without a usable `media-size`.
    init?(_ members: [IPPAttribute]) {
        guard let size = members.collections("media-size").first, let parsed = MediaCol(size: size) else { return nil }
        self = parsed
        func margin(_ name: String) -> Length? {
            members.int(name).flatMap { $0 >= 0 ? Length(hundredthsOfMillimetre: $0) : nil }
        }
        top = margin("media-top-margin")
        bottom = margin("media-bottom-margin")
        left = margin("media-left-margin")
        right = margin("media-right-margin")
        source = members.string("media-source")
        type = members.string("media-type")
        sizeName = members.string("media-size-name")
    }

    /// From a `media-size` collection: `x-dimension` and `y-dimension`, each
    /// an integer or a range (hundredths of a millimetre).
    init?(size: [IPPAttribute]) {
        guard let width = Self.dimension(size[named: "x-dimension"]?.value),
              let length = Self.dimension(size[named: "y-dimension"]?.value) else { return nil }
        self.width = width
        self.length = length
    }

    func margins(default fallback: Margins) -> Margins {
        Margins(top: top ?? fallback.top, bottom: bottom ?? fallback.bottom,
                left: left ?? fallback.left, right: right ?? fallback.right)
    }

    private static func dimension(_ value: IPPValue?) -> Dimension? {
        switch value {
        case .integer(let size)? where size > 0:
            return .fixed(Length(hundredthsOfMillimetre: size))
        case .range(let sizes)? where sizes.lowerBound > 0:
            return .range(Length(hundredthsOfMillimetre: sizes.lowerBound)...Length(hundredthsOfMillimetre: sizes.upperBound))
        default:
            return nil
        }
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
