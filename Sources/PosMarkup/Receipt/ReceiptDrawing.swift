import Foundation
public import Templates

/// A POS's receipt (an ePOS-Print or WebPRNT request) as a KioskPrint
/// template, drawn by the same renderer as every job, for whatever printer
/// holds the role, at its own resolution, and cut where the content ends
/// (or at each cut the request asks for).
///
/// Epson's and Star's dots are a 203 dpi head's (an 80 mm roll is 576
/// across), so an image or a barcode keeps its size on paper on a printer
/// of another resolution. Text is set in DejaVu Sans Mono at the size of
/// both makers' font A (12 x 24 dots: 48 columns on 80 mm) or B (9 dots
/// wide), with the spaces a POS aligns its columns with kept; the width
/// and height multipliers scale it (the larger of the two, since a font is
/// scaled as a whole).
public enum ReceiptDrawing {
    /// The dots per inch Epson's dot units are counted at.
    public static let dotsPerInch = 203.0
    /// Font A's advance is 12 dots; DejaVu Sans Mono's advance is 0.602 em.
    static let fontAPoints = 12 / dotsPerInch * 72 / 0.602
    static let fontBPoints = 9 / dotsPerInch * 72 / 0.602
    /// A line feed's pitch, 1/6 inch, Epson's default line spacing.
    static let linePitchMillimetres = 25.4 / 6

    public static func source(_ commands: [ReceiptCommand], name: String) -> TemplateSource {
        var body = ""
        var pixels: [String: GrayPixels] = [:]
        var line: [(String, ReceiptTextStyle)] = []
        var opensDrawer = false

        func flush() {
            guard !line.isEmpty else { return }
            body += markup(line)
            line.removeAll()
        }
        for command in commands {
            switch command {
            case .text(let text, let style):
                for (index, part) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if index > 0 {
                        if line.isEmpty { body += space(millimetres: linePitchMillimetres) } else { flush() }
                    }
                    let cleaned = part.filter { $0 != "\r" }
                    if !cleaned.isEmpty { line.append((String(cleaned), style)) }
                }
            case .feed(let lines, let dots):
                flush()
                let millimetres = Double(lines ?? 0) * linePitchMillimetres + Double(dots ?? 0) / dotsPerInch * 25.4
                if millimetres > 0 { body += space(millimetres: millimetres) }
            case .image(let image, let align):
                flush()
                let file = "receipt-image-\(pixels.count + 1)"
                pixels[file] = GrayPixels(width: image.width, height: image.height, luminance: image.luminance)
                body += #"<image src="\#(file)" width="\#(millimetres(dots: image.width))mm" align="\#(align.rawValue)" dither="threshold"/>"#
            case .barcode(let barcode):
                flush()
                body += #"<barcode type="\#(barcode.type)" module="\#(barcode.module)" height="\#(millimetres(dots: barcode.height))mm" "#
                    + #"hri="\#(barcode.readable ? "below" : "none")" align="\#(barcode.align.rawValue)">\#(escaped(barcode.data))</barcode>"#
            case .symbol(let symbol):
                flush()
                body += #"<barcode type="\#(symbol.type)" module="\#(symbol.module)" align="\#(symbol.align.rawValue)">\#(escaped(symbol.data))</barcode>"#
            case .rule(_, _, let style):
                flush()
                body += #"<rule style="\#(style.hasSuffix("double") ? "double" : "solid")" thickness="\#(style.hasPrefix("thick") ? "0.5" : "0.25")mm"/>"#
            case .cut:
                flush()
                body += "<cut/>"
            case .pulse:
                opensDrawer = true
            case .ignored:
                continue
            }
        }
        flush()
        // A template's <cut/> starts a new piece: one at the very end would make an empty one.
        while body.hasSuffix("<cut/>") { body.removeLast("<cut/>".count) }
        let root = #"<template page="roll"\#(opensDrawer ? #" drawer="open""# : "")>"#
        return TemplateSource(name: name, origin: .builtIn, text: root + body + "</template>", file: name,
                              assets: TemplateAssets(pixels: pixels))
    }

    /// One printed line: a `<text>` in one style, or a row of columns, one per style.
    static func markup(_ runs: [(String, ReceiptTextStyle)]) -> String {
        if runs.allSatisfy({ $0.1 == runs[0].1 }) {
            return "<text \(attributes(runs[0].1))>\(escaped(runs.map(\.0).joined(), keepingSpaces: true))</text>"
        }
        var row = #"<row align="\#(runs[0].1.align.rawValue)">"#
        for (text, style) in runs {
            row += #"<col width="auto" \#(attributes(style))>\#(escaped(text, keepingSpaces: true))</col>"#
        }
        return row + #"<col width="1fr"> </col></row>"#
    }

    static func attributes(_ style: ReceiptTextStyle) -> String {
        let base = style.font == "font_b" ? fontBPoints : fontAPoints
        let size = base * Double(max(style.widthScale, style.heightScale))
        var text = #"font="DejaVu Sans Mono" size="\#(String(format: "%.2f", size))" align="\#(style.align.rawValue)" wrap="char""#
        if style.emphasis { text += #" bold="true""# }
        if style.underline { text += #" underline="true""# }
        if style.reverse { text += #" inverse="true""# }
        return text
    }

    static func space(millimetres: Double) -> String {
        #"<space height="\#(String(format: "%.2f", millimetres))mm"/>"#
    }

    static func millimetres(dots: Int) -> String {
        String(format: "%.2f", Double(dots) / dotsPerInch * 25.4)
    }

    /// Text for the markup: `&` and `<` escaped, and, where a POS aligns
    /// columns with spaces, each space a no-break space, which the markup
    /// does not fold.
    static func escaped(_ text: String, keepingSpaces: Bool = false) -> String {
        // Control characters (a POS's ESC/POS habits in <text>) print nothing, and the markup takes none.
        let text = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        var escaped = MarkupEscaping.text(text)
        if keepingSpaces { escaped = escaped.replacingOccurrences(of: " ", with: "\u{00A0}") }
        return escaped
    }
}
