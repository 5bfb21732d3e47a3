import Foundation
import PrintModel

extension MarkupBuilder {
    /// The block a closed element stands for; nil (with a problem recorded) when it cannot be built.
    func makeNode(_ frame: Frame) -> LayoutNode? {
        var read = AttributeReader(element: frame.element, values: frame.attributes, location: frame.location)
        defer { problems += read.problems }
        switch frame.element {
        case "text":
            return .text(TextBlock(content: Self.folded(frame.text), style: read.style(), location: frame.location))
        case "row":
            if frame.columns.isEmpty {
                read.problems.append(TemplateDiagnostic("<row> needs at least one <col>.", at: frame.location))
            }
            return .row(Row(columns: frame.columns, style: read.style(), location: frame.location))
        case "rule":
            return .rule(Rule(style: read.choice("style", as: Rule.Style.self) ?? .solid,
                              thickness: read.length("thickness") ?? .millimetres(0.25), location: frame.location))
        case "space":
            return .space(read.required("height") != nil ? (read.length("height") ?? .zero) : .zero, frame.location)
        case "image":
            guard let source = read.required("src") else { return nil }
            return .image(ImageBlock(source: source, width: read.length("width"),
                                     align: read.choice("align", as: TextStyle.Alignment.self) ?? .center,
                                     dither: read.choice("dither", as: ImageBlock.Dither.self) ?? .floydSteinberg,
                                     location: frame.location))
        case "barcode":
            guard let type = read.required("type") else { return nil }
            guard let symbology = BarcodeBlock.Symbology(rawValue: type.lowercased())
                    ?? (type.lowercased() == "itf" ? .itf : nil) else {
                let known = BarcodeBlock.Symbology.allCases.map(\.rawValue).joined(separator: ", ")
                read.problems.append(TemplateDiagnostic("type=\"\(type)\" on <barcode> is not one of: \(known).", at: frame.location))
                return nil
            }
            let module = read.number("module", in: 1...20).map { Int($0) } ?? 2
            return .barcode(BarcodeBlock(symbology: symbology, data: frame.text.trimmingCharacters(in: .whitespacesAndNewlines),
                                         module: module, height: read.length("height"),
                                         humanReadable: read.choice("hri", as: BarcodeBlock.HumanReadable.self) ?? .below,
                                         align: read.choice("align", as: TextStyle.Alignment.self) ?? .center,
                                         check: read.choice("check", as: BarcodeBlock.DataCheck.self),
                                         location: frame.location))
        case "box":
            return .box(Box(border: read.length("border") ?? .millimetres(0.25), padding: read.length("padding") ?? .millimetres(1),
                            children: frame.children, location: frame.location))
        case "cut":
            return .cut(frame.location)
        default:
            return nil
        }
    }

    /// A closed <col>, for its row.
    func makeColumn(_ frame: Frame) -> Column? {
        var read = AttributeReader(element: "col", values: frame.attributes, location: frame.location)
        defer { problems += read.problems }
        let width: Column.Width
        switch read.string("width")?.lowercased() {
        case nil, "auto": width = .auto
        case let raw? where raw.hasSuffix("fr"):
            if let share = Double(raw.dropLast(2)), share > 0 { width = .fraction(share) } else {
                read.problems.append(TemplateDiagnostic("width=\"\(raw)\" on <col>: a share is written like 1fr or 2.5fr.",
                                                        at: frame.location))
                width = .auto
            }
        default: width = read.length("width").map(Column.Width.fixed) ?? .auto
        }
        return Column(width: width, content: Self.folded(frame.text), style: read.style(), location: frame.location)
    }

    /// The document from the closed <template> element.
    func makeDocument(_ frame: Frame) -> LayoutDocument {
        var read = AttributeReader(element: "template", values: frame.attributes, location: frame.location)
        defer { problems += read.problems }
        let size: PageRequest.Size
        switch read.string("page")?.lowercased() {
        case nil, "roll": size = .roll
        case let raw?:
            do {
                let page = try PageSize(parsing: raw)
                size = .fixed(width: page.width, length: page.length)
            } catch {
                read.problems.append(TemplateDiagnostic(
                    "page=\"\(raw)\" on <template>: write roll, or a size like 4x6in or 80x120mm.", at: frame.location))
                size = .roll
            }
        }
        let cut: PageRequest.Cut
        switch read.string("cut")?.lowercased() {
        case nil: cut = size == .roll ? .afterContent(minimum: read.length("min-length")) : .sheet
        case "after-content": cut = .afterContent(minimum: read.length("min-length"))
        case "sheet": cut = .sheet
        default: cut = read.length("cut").map(PageRequest.Cut.fixed) ?? .afterContent(minimum: nil)
        }
        let page = PageRequest(size: size, orientation: read.choice("orientation", as: PageRequest.Orientation.self) ?? .portrait,
                               cut: cut, margin: read.length("margin") ?? .zero,
                               cutStyle: read.choice("cut-style", as: CutStyle.self))
        let opensDrawer = read.choice("drawer", as: DrawerRequest.self) == .open
        return LayoutDocument(page: page, header: frame.header, body: frame.children, footer: frame.footer,
                              opensDrawer: opensDrawer, location: frame.location)
    }

    /// Folds the source's line breaks and indentation into single spaces, as
    /// HTML does, keeping the breaks written with <br/> and, as HTML does, a
    /// no-break space (U+00A0, `&#160;`) as it is: columns aligned with spaces stay aligned.
    static func folded(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace && $0 != "\u{2028}" && $0 != "\u{00A0}" }).joined(separator: " ")
            .replacingOccurrences(of: " \u{2028} ", with: "\n")
            .replacingOccurrences(of: " \u{2028}", with: "\n")
            .replacingOccurrences(of: "\u{2028} ", with: "\n")
            .replacingOccurrences(of: "\u{2028}", with: "\n")
    }
}

/// The values of `<template drawer="...">`.
enum DrawerRequest: String, CaseIterable {
    /// Kick the cash drawer after the cut. Without the attribute, no kick.
    case open
}
