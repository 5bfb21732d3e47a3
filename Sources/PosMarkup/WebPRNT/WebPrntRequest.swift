public import Foundation

/// A Star WebPRNT request as Star's `StarWebPrintTrader` posts it to a
/// printer's `/StarWebPRNT/SendMessage`: `<StarWebPrint><Request>` holding,
/// escaped as text, the `<root>` whose elements are the print (Star's
/// "Star webPRNT Request Element"). A bare `<root>` is read too, as a
/// developer writes one by hand.
public struct WebPrntRequest: Hashable, Sendable {
    public var commands: [ReceiptCommand]
    /// `<root checkedblock="false">`: answer once the data is taken, not once
    /// it has printed (for KioskPrint: once the job is queued).
    public var waitsForPrint = true

    /// Reads `data`; throws the first problem with the element and attribute it is in.
    public static func parse(_ data: Data) throws(PosMarkupError) -> WebPrntRequest {
        let outer = try MarkupTree.read(data)
        let root: XMLElementNode
        switch outer.name {
        case "StarWebPrint":
            guard let request = outer.first(named: "Request") else {
                throw PosMarkupError("<StarWebPrint> has no <Request> element: post what StarWebPrintTrader.sendMessage sends.")
            }
            let inner = request.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if inner.isEmpty { return WebPrntRequest(commands: []) }
            root = try MarkupTree.read(Data(inner.utf8))
        case "root":
            root = outer
        default:
            throw PosMarkupError("<\(outer.name)> is not a WebPRNT request: post <StarWebPrint><Request>...</Request></StarWebPrint> "
                + "as StarWebPrintTrader does, or a bare <root>.")
        }
        guard root.name == "root" else {
            throw PosMarkupError("the request's <Request> holds <\(root.name)>, not <root>.")
        }
        var request = WebPrntRequest(commands: try WebPrntCommandReader.read(root.children))
        if let checked = try Attributes(root).boolean("checkedblock") { request.waitsForPrint = checked }
        return request
    }

    /// Whether `data` looks like a WebPRNT request: XML with `StarWebPrint` near its start.
    public static func looksLike(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        return head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.first == "<" && head.contains("StarWebPrint")
    }
}
