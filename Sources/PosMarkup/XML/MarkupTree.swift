import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A POS's XML read into a tree of elements, bounded so that a hostile
/// request stays small, with external entities off: a request never reaches
/// outside itself.
enum MarkupTree {
    /// The most elements one request may hold: a long receipt is a few hundred.
    static let maximumElements = 20_000
    static let maximumDepth = 32

    static func read(_ data: Data) throws(PosMarkupError) -> XMLElementNode {
        // FoundationXML traps on a name that is not UTF-8 (the fuzzer's find, kept in Tests/Fuzz/corpus/epos-request):
        // checked first, since any client can send any bytes.
        guard String(data: data, encoding: .utf8) != nil else {
            throw PosMarkupError("the request is not UTF-8 text; POS clients send UTF-8 (charset=utf-8).")
        }
        let tree = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.delegate = tree
        parser.shouldResolveExternalEntities = false
        _ = parser.parse()
        if let problem = tree.problem { throw PosMarkupError(problem) }
        if let failure = parser.parserError {
            throw PosMarkupError("the request is not well-formed XML (\(failure.localizedDescription), line \(parser.lineNumber)).")
        }
        guard let root = tree.root else { throw PosMarkupError("the request is empty.") }
        return root
    }
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

/// Builds the element tree, counting elements and depth.
final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLElementNode] = []
    private(set) var root: XMLElementNode?
    private(set) var problem: String?
    private var count = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        count += 1
        guard count <= MarkupTree.maximumElements, stack.count < MarkupTree.maximumDepth else {
            problem = count > MarkupTree.maximumElements
                ? "the request has more than \(MarkupTree.maximumElements) elements; send a long document in parts."
                : "the request nests elements more than \(MarkupTree.maximumDepth) deep."
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
