import Templates

/// A `TextStyle` with every field decided: the template's value, else the
/// enclosing row's, else the receipt default.
///
/// Defaults are chosen for 80 mm thermal receipts read at arm's length:
/// - DejaVu Sans: installed everywhere (fonts-dejavu-core), covers Latin,
///   Cyrillic and Greek, and its open shapes survive 203 dpi thresholding.
/// - 10 pt: about 28 dots per em at 203 dpi, roughly 36-40 characters across
///   72 mm. Smaller sizes fit more but break up on worn heads; 10 pt stays
///   readable without squinting.
/// - Left aligned, word wrap, single line spacing.
struct ResolvedTextStyle: Hashable {
    static let defaultFont = "DejaVu Sans"
    static let defaultSize = 10.0

    var font: String
    var size: Double
    var bold: Bool
    var italic: Bool
    var underline: Bool
    var inverse: Bool
    var align: TextStyle.Alignment
    var wrap: TextStyle.Wrap
    /// Line height as a multiple of the font's own line height; 1 = the font's spacing.
    var lineSpacing: Double

    /// `style`'s fields, falling back to `parent`'s, then to the defaults.
    init(_ style: TextStyle, inheriting parent: TextStyle = TextStyle()) {
        font = style.font ?? parent.font ?? Self.defaultFont
        // A non-positive size would make Pango fall back to its own default
        // silently; the receipt default is at least a readable one.
        let size = style.size ?? parent.size ?? Self.defaultSize
        self.size = size > 0 ? size : Self.defaultSize
        bold = style.bold ?? parent.bold ?? false
        italic = style.italic ?? parent.italic ?? false
        underline = style.underline ?? parent.underline ?? false
        inverse = style.inverse ?? parent.inverse ?? false
        align = style.align ?? parent.align ?? .left
        wrap = style.wrap ?? parent.wrap ?? .word
        let spacing = style.lineSpacing ?? parent.lineSpacing ?? 1
        lineSpacing = spacing > 0 ? spacing : 1
    }
}
