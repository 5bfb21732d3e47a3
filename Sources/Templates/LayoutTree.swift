public import PrintModel

/// A template, parsed: the page it asks for and what goes on it, top to bottom.
/// Text may still hold Mustache tags (`{{name}}`); binding the job's data
/// happens on this tree, not on the raw file.
public struct LayoutDocument: Sendable, Equatable {
    public var page: PageRequest
    public var header: [LayoutNode]
    public var body: [LayoutNode]
    public var footer: [LayoutNode]
    /// `drawer="open"`: kick the cash drawer once the job is cut (a till's
    /// sale receipt). Only a printer with a drawer port does it.
    public var opensDrawer = false
    /// Where the root element stands.
    public var location: SourceLocation
}

/// What paper a template wants.
public struct PageRequest: Sendable, Equatable {
    public enum Size: Sendable, Equatable {
        /// A roll: the printer's roll width; the length follows the content.
        case roll
        /// A fixed page: a label or ticket (width x length, before orientation).
        case fixed(width: Length, length: Length)
    }
    public enum Orientation: String, Sendable, Equatable, CaseIterable { case portrait, landscape }
    public enum Cut: Sendable, Equatable {
        /// Cut after the content (receipts); at least `minimum` long.
        case afterContent(minimum: Length?)
        /// Cut at a fixed length (ticket stock).
        case fixed(Length)
        /// The page is a sheet or label: it is as long as it is.
        case sheet
    }

    public var size: Size
    public var orientation: Orientation
    public var cut: Cut
    /// Space kept clear inside the printer's own margins.
    public var margin: Length
    /// `cut-style`: how the knife cuts (partial or full), where the printer
    /// can do both; nil leaves it to the role and the printer.
    public var cutStyle: CutStyle?
}

/// One block of the layout, in reading order.
public indirect enum LayoutNode: Sendable, Equatable {
    case text(TextBlock)
    case row(Row)
    case rule(Rule)
    case space(Length, SourceLocation)
    case image(ImageBlock)
    case barcode(BarcodeBlock)
    case box(Box)
    /// An explicit cut: what follows is a separately cut piece (receipt plus coupon).
    case cut(SourceLocation)
    /// `{{#name}}...{{/name}}` written between blocks: repeated for each item of
    /// a list, shown if a value is truthy, or (inverted, `{{^name}}`) if it is not.
    case section(Section)
}

/// A Mustache section around blocks.
public struct Section: Sendable, Equatable {
    public var name: String
    public var inverted: Bool
    public var children: [LayoutNode]
    public var location: SourceLocation
}

/// How text looks. Every field is optional so that a row's columns inherit from the row.
public struct TextStyle: Sendable, Equatable {
    public enum Alignment: String, Sendable, Hashable, CaseIterable { case left, center, right }
    public enum Wrap: String, Sendable, Hashable, CaseIterable { case word, char, none }

    public var font: String?
    /// Font size in points.
    public var size: Double?
    public var bold: Bool?
    public var italic: Bool?
    public var underline: Bool?
    /// White on black.
    public var inverse: Bool?
    public var align: Alignment?
    public var wrap: Wrap?
    /// Line height as a multiple of the font size.
    public var lineSpacing: Double?

    public init() {}
}

/// A paragraph of text.
public struct TextBlock: Sendable, Equatable {
    public var content: String
    public var style: TextStyle
    public var location: SourceLocation

    public init(content: String, style: TextStyle, location: SourceLocation) {
        self.content = content; self.style = style; self.location = location
    }
}

/// A line of columns: the item / qty / price line.
public struct Row: Sendable, Equatable {
    public var columns: [Column]
    public var style: TextStyle
    public var location: SourceLocation
}

/// One column of a row.
public struct Column: Sendable, Equatable {
    public enum Width: Sendable, Equatable {
        /// As wide as its content.
        case auto
        /// A share of the width left after fixed and automatic columns.
        case fraction(Double)
        case fixed(Length)
    }
    public var width: Width
    public var content: String
    public var style: TextStyle
    public var location: SourceLocation
}

/// A horizontal line across the printable width.
public struct Rule: Sendable, Equatable {
    public enum Style: String, Sendable, Equatable, CaseIterable { case solid, dashed, double }
    public var style: Style
    public var thickness: Length
    public var location: SourceLocation
}

/// A PNG or JPEG from the template's folder.
public struct ImageBlock: Sendable, Equatable {
    public enum Dither: String, Sendable, Equatable, CaseIterable { case floydSteinberg = "floyd-steinberg", threshold, ordered }
    public var source: String
    public var width: Length?
    public var align: TextStyle.Alignment
    public var dither: Dither
    public var location: SourceLocation
}

/// A barcode drawn by zint with whole-dot modules.
public struct BarcodeBlock: Sendable, Equatable {
    public enum Symbology: String, Sendable, Equatable, CaseIterable {
        case code128, ean13, upca, itf = "interleaved2of5", code39, ean8, upce, code93, codabar, qr, pdf417, aztec, datamatrix
    }
    public enum HumanReadable: String, Sendable, Equatable, CaseIterable { case below, none }
    /// A standard the data must follow beyond what the symbology checks.
    public enum DataCheck: String, Sendable, Equatable, CaseIterable {
        /// IATA Resolution 792 boarding pass (BCBP) data: "M1" and a 60-character mandatory part.
        case bcbp
    }
    public var symbology: Symbology
    public var data: String
    /// Dots per module: a whole number, or scanners fail.
    public var module: Int
    /// Bar height for linear symbols.
    public var height: Length?
    public var humanReadable: HumanReadable
    public var align: TextStyle.Alignment
    /// Checked before drawing, when the template names a standard (`check="bcbp"`).
    public var check: DataCheck? = nil
    public var location: SourceLocation
}

/// A border around its children.
public struct Box: Sendable, Equatable {
    public var border: Length
    public var padding: Length
    public var children: [LayoutNode]
    public var location: SourceLocation
}
