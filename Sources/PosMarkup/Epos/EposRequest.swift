public import Foundation

/// An ePOS-Print XML request as Epson's clients send it to a printer's
/// `/cgi-bin/epos/service.cgi`: a SOAP envelope (or a bare `<epos-print>`)
/// whose body's elements are the print, and, in the SOAP header, the
/// `devid`, `timeout` and `printjobid` a client may send there instead of in
/// the query.
public struct EposRequest: Hashable, Sendable {
    public var commands: [ReceiptCommand]
    public var deviceID: String?
    /// Milliseconds; nil when the header does not say.
    public var timeout: Int?
    public var printJobID: String?

    /// Whether it prints nothing: an empty `<epos-print/>`, which clients send to ask the status.
    public var asksStatusOnly: Bool { commands.printsNothing }
    /// Whether it only kicks the drawer (Odoo's "open cashbox").
    public var onlyKicksDrawer: Bool { commands.onlyKicksDrawer }

    /// Reads `data`; throws the first problem with the element and attribute it is in.
    public static func parse(_ data: Data) throws(PosMarkupError) -> EposRequest {
        let root = try MarkupTree.read(data)
        guard let print = root.first(named: "epos-print") else {
            throw PosMarkupError("the request has no <epos-print> element (in a SOAP envelope's body, or alone).")
        }
        var request = EposRequest(commands: try EposCommandReader.read(print.children))
        if let parameter = root.first(named: "Header")?.first(named: "parameter") {
            request.deviceID = parameter.first(named: "devid")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
            request.timeout = parameter.first(named: "timeout").flatMap { Int($0.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            request.printJobID = parameter.first(named: "printjobid")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return request
    }

    /// Whether `data` looks like an ePOS-Print request: XML with an `epos-print` element near its start.
    public static func looksLike(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        return head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.first == "<" && head.contains("epos-print")
    }
}
