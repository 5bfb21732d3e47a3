public import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An ePOS-Print XML request as Epson's clients send it to a printer's
/// `/cgi-bin/epos/service.cgi`: a SOAP envelope (or a bare `<epos-print>`)
/// whose body's elements are the print, and, in the SOAP header, the
/// `devid`, `timeout` and `printjobid` a client may send there instead of in
/// the query. Read with external entities off: a request never reaches
/// outside itself.
public struct EposRequest: Hashable, Sendable {
    public var commands: [EposCommand]
    public var deviceID: String?
    /// Milliseconds; nil when the header does not say.
    public var timeout: Int?
    public var printJobID: String?

    /// Whether it prints nothing: an empty `<epos-print/>`, which clients send to ask the status.
    public var asksStatusOnly: Bool { commands.allSatisfy { if case .ignored = $0 { true } else { false } } }
    /// Whether it only kicks the drawer (Odoo's "open cashbox").
    public var onlyKicksDrawer: Bool {
        commands.contains { if case .pulse = $0 { true } else { false } }
            && commands.allSatisfy { switch $0 { case .pulse, .ignored: true; default: false } }
    }

    /// The most elements one request may hold: a long receipt is a few hundred.
    public static let maximumElements = 20_000

    /// Reads `data`; throws the first problem with the element and attribute it is in.
    public static func parse(_ data: Data) throws(EposRequestError) -> EposRequest {
        // FoundationXML traps on a name that is not UTF-8 (the fuzzer's find, kept in Tests/Fuzz/corpus/epos-request):
        // checked first, since any client can send any bytes.
        guard String(data: data, encoding: .utf8) != nil else {
            throw EposRequestError("the request is not UTF-8 text; Epson's clients send UTF-8 (charset=utf-8).")
        }
        let tree = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.delegate = tree
        parser.shouldResolveExternalEntities = false
        _ = parser.parse()
        if let problem = tree.problem { throw EposRequestError(problem) }
        if let failure = parser.parserError {
            throw EposRequestError("the request is not well-formed XML (\(failure.localizedDescription), line \(parser.lineNumber)).")
        }
        guard let root = tree.root else { throw EposRequestError("the request is empty.") }
        guard let print = root.first(named: "epos-print") else {
            throw EposRequestError("the request has no <epos-print> element (in a SOAP envelope's body, or alone).")
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

/// Why a request cannot be printed: what ePOS-Print answers `SchemaError` for.
public struct EposRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An element of the request, with its namespace prefix taken off.
struct XMLElementNode: Sendable {
    var name: String
    var attributes: [String: String]
    var children: [XMLElementNode] = []
    var text = ""

    func first(named name: String) -> XMLElementNode? {
        if self.name == name { return self }
        for child in children { if let found = child.first(named: name) { return found } }
        return nil
    }
}

/// Builds the element tree, counting elements and depth so that a hostile request stays small.
final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLElementNode] = []
    private(set) var root: XMLElementNode?
    private(set) var problem: String?
    private var count = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        count += 1
        guard count <= EposRequest.maximumElements, stack.count < 32 else {
            problem = count > EposRequest.maximumElements
                ? "the request has more than \(EposRequest.maximumElements) elements; send a long document in parts."
                : "the request nests elements more than 32 deep."
            parser.abortParsing()
            return
        }
        let local = name.split(separator: ":").last.map(String.init) ?? name
        stack.append(XMLElementNode(name: local, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
    }
}
