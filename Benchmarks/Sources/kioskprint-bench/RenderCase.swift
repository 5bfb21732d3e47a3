import BenchSupport
import Foundation
import Templates

/// One template with its data, as the render bench draws it: each built-in
/// with its sample data, and the receipt with a long basket.
struct RenderCase: Sendable {
    /// What the bench calls it; `render-one` takes this name.
    let name: String
    let source: TemplateSource
    /// The job's data, as JSON text: parsing it is part of what is timed.
    let json: Data

    /// The name of the receipt with 30 items.
    static let longReceipt = "receipt-30"
    static let longReceiptItems = 30

    /// Every case, in table order: the built-ins, then the long receipt.
    static func all() throws -> [RenderCase] {
        try BuiltInTemplates.all.map(builtIn) + [try receipt(items: longReceiptItems)]
    }

    static func named(_ name: String) throws -> RenderCase {
        if name == longReceipt { return try receipt(items: longReceiptItems) }
        guard let source = BuiltInTemplates.all.first(where: { $0.name == name }) else {
            throw BenchError("no built-in template or bench case is called \(name)")
        }
        return try builtIn(source)
    }

    private static func builtIn(_ source: TemplateSource) throws -> RenderCase {
        guard let sample = source.sampleData else { throw BenchError("\(source.name) has no sample data") }
        return RenderCase(name: source.name, source: source, json: Data(sample.utf8))
    }

    /// The receipt's sample basket repeated until it holds `count` items, so
    /// that the long receipt has the short one's mix (modifiers, discounts,
    /// long names that wrap). The totals are left as they are: the template
    /// prints them, it does not add them up.
    private static func receipt(items count: Int) throws -> RenderCase {
        let base = try named("receipt")
        guard var object = try JSONSerialization.jsonObject(with: base.json) as? [String: Any],
              let items = object["items"] as? [Any], !items.isEmpty else {
            throw BenchError("the receipt's sample data has no items array")
        }
        object["items"] = (0..<count).map { items[$0 % items.count] }
        let json = try JSONSerialization.data(withJSONObject: object)
        return RenderCase(name: longReceipt, source: base.source, json: json)
    }

    /// How the table names the case.
    var label: String { name == Self.longReceipt ? "receipt, \(Self.longReceiptItems) items" : name }
}
