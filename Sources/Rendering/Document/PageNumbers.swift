import Foundation
import Templates

/// `{{page}}` and `{{pages}}` in headers and footers: data binding leaves them
/// in place (the page count is only known once the content is cut into
/// pieces), and each page fills in its own.
enum PageNumbers {
    static func fill(_ nodes: [LayoutNode], page: Int, of pages: Int) -> [LayoutNode] {
        nodes.map { fill($0, page: page, of: pages) }
    }

    private static func fill(_ node: LayoutNode, page: Int, of pages: Int) -> LayoutNode {
        func numbered(_ text: String) -> String {
            guard text.contains("{{") else { return text }
            return text.replacingOccurrences(of: "{{page}}", with: String(page))
                .replacingOccurrences(of: "{{pages}}", with: String(pages))
        }
        switch node {
        case .text(var block):
            block.content = numbered(block.content)
            return .text(block)
        case .row(var row):
            for index in row.columns.indices { row.columns[index].content = numbered(row.columns[index].content) }
            return .row(row)
        case .barcode(var barcode):
            barcode.data = numbered(barcode.data)
            return .barcode(barcode)
        case .box(var box):
            box.children = fill(box.children, page: page, of: pages)
            return .box(box)
        case .section(var section):
            section.children = fill(section.children, page: page, of: pages)
            return .section(section)
        case .rule, .space, .image, .cut:
            return node
        }
    }
}
