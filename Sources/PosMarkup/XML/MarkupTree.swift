import Foundation

/// A POS's XML read into a tree of elements by a reader of our own, bounded
/// so that a hostile request stays small. It takes what ePOS-Print and
/// WebPRNT clients send (a declaration, elements with attributes, text,
/// the five predefined entities and character references, CDATA, comments,
/// processing instructions) and refuses a DOCTYPE: no entity is ever
/// declared, so none is expanded and nothing outside the request is read.
///
/// Not FoundationXML: its XMLParser stops the process on a name that is not
/// UTF-8 and leaks about 144 bytes for each malformed document, and these
/// endpoints read whatever any allowed client sends.
enum MarkupTree {
    /// The most elements one request may hold: a long receipt is a few hundred.
    static let maximumElements = 20_000
    static let maximumDepth = 32

    static func read(_ data: Data) throws(PosMarkupError) -> XMLElementNode {
        guard String(data: data, encoding: .utf8) != nil else {
            throw PosMarkupError("the request is not UTF-8 text; POS clients send UTF-8 (charset=utf-8).")
        }
        var reader = MarkupReader(bytes: [UInt8](data))
        do { return try reader.document() } catch {
            throw PosMarkupError(error.limit ? error.reason : "the request is not well-formed XML (\(error.reason), line \(reader.line)).")
        }
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

/// The reader itself: one pass over the bytes, an explicit stack of open
/// elements (so nesting costs no recursion), counting elements and depth.
struct MarkupReader {
    struct Failure: Error {
        var reason: String
        /// A limit of ours rather than a fault in the XML: said without "not well-formed".
        var limit = false
    }

    let bytes: [UInt8]
    var index = 0
    var line = 1
    private var count = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a byte-order mark
    }

    mutating func document() throws(Failure) -> XMLElementNode {
        var open: [(qualified: String, node: XMLElementNode)] = []
        var root: XMLElementNode?
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let text = try characters()
                if open.isEmpty {
                    guard text.allSatisfy(\.isWhitespace) else { throw Failure(reason: "text outside the root element") }
                } else {
                    open[open.count - 1].node.text += text
                }
                continue
            }
            if skip("<?") { try skipPast("?>", what: "a processing instruction"); continue }
            if skip("<!--") { try skipPast("-->", what: "a comment"); continue }
            if skip("<![CDATA[") {
                let start = index
                try skipPast("]]>", what: "a CDATA section")
                guard !open.isEmpty else { throw Failure(reason: "CDATA outside the root element") }
                open[open.count - 1].node.text += Self.normalizedLines(String(decoding: bytes[start ..< index - 3], as: UTF8.self))
                continue
            }
            if skip("<!") { throw Failure(reason: "a DOCTYPE or declaration, which a POS request never needs and KioskPrint does not read") }
            if skip("</") {
                let name = try self.name()
                skipSpace()
                guard skip(">") else { throw Failure(reason: "</\(name) is not closed with >") }
                guard let last = open.popLast() else { throw Failure(reason: "</\(name)> closes nothing") }
                guard last.qualified == name else { throw Failure(reason: "</\(name)> closes <\(last.qualified)>") }
                if open.isEmpty { root = last.node } else { open[open.count - 1].node.children.append(last.node) }
                continue
            }
            index += 1
            guard root == nil else { throw Failure(reason: "a second root element") }
            count += 1
            guard count <= MarkupTree.maximumElements else {
                throw Failure(reason: "the request has more than \(MarkupTree.maximumElements) elements; send a long document in parts.", limit: true)
            }
            guard open.count < MarkupTree.maximumDepth else {
                throw Failure(reason: "the request nests elements more than \(MarkupTree.maximumDepth) deep.", limit: true)
            }
            let qualified = try name()
            let local = qualified.split(separator: ":").last.map(String.init) ?? qualified
            var node = XMLElementNode(name: local, attributes: [:])
            while true {
                let spaced = skipSpace()
                if skip("/>") {
                    if open.isEmpty { root = node } else { open[open.count - 1].node.children.append(node) }
                    break
                }
                if skip(">") { open.append((qualified, node)); break }
                guard spaced, index < bytes.count else { throw Failure(reason: "<\(qualified) is not closed with > or />") }
                let attribute = try name()
                skipSpace()
                guard skip("=") else { throw Failure(reason: "the attribute \(attribute) of <\(qualified)> has no =") }
                skipSpace()
                guard node.attributes[attribute] == nil else { throw Failure(reason: "<\(qualified)> has the attribute \(attribute) twice") }
                node.attributes[attribute] = try quoted(in: qualified)
            }
        }
        guard open.isEmpty else { throw Failure(reason: "<\(open[open.count - 1].qualified)> is not closed") }
        guard let root else { throw Failure(reason: "no element") }
        return root
    }

    // MARK: pieces

    /// Text up to the next `<`, with references replaced and line ends made LF.
    private mutating func characters() throws(Failure) -> String {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") { countLine(); index += 1 }
        return try Self.resolved(String(decoding: bytes[start ..< index], as: UTF8.self))
    }

    /// An attribute's value between matching quotes, references replaced.
    private mutating func quoted(in element: String) throws(Failure) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw Failure(reason: "an attribute of <\(element)> is not quoted")
        }
        let quote = bytes[index]
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != quote {
            guard bytes[index] != UInt8(ascii: "<") else { throw Failure(reason: "an attribute of <\(element)> holds <") }
            countLine()
            index += 1
        }
        guard index < bytes.count else { throw Failure(reason: "an attribute of <\(element)> is not closed") }
        index += 1
        // Attribute values turn each white-space character into a space, as XML says.
        let raw = String(decoding: bytes[start ..< index - 1], as: UTF8.self)
        return try Self.resolved(String(raw.map { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" ? " " : $0 }))
    }

    /// A name: letters, digits and `_ - . :`, and any non-ASCII character; it may not start with a digit, `-` or `.`.
    private mutating func name() throws(Failure) -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isName = byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
            guard isName else { break }
            index += 1
        }
        guard index > start, !(bytes[start] >= UInt8(ascii: "0") && bytes[start] <= UInt8(ascii: "9")),
              bytes[start] != UInt8(ascii: "-"), bytes[start] != UInt8(ascii: ".") else {
            throw Failure(reason: "a name was expected")
        }
        return String(decoding: bytes[start ..< index], as: UTF8.self)
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { countLine(); index += 1 }
        return index > start
    }

    private mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }

    private mutating func skipPast(_ end: StaticString, what: String) throws(Failure) {
        while index < bytes.count {
            if skip(end) { return }
            countLine()
            index += 1
        }
        throw Failure(reason: "\(what) is not closed")
    }

    private mutating func countLine() { if bytes[index] == 0x0A { line += 1 } }

    /// `&lt; &gt; &amp; &quot; &apos;` and `&#N;` `&#xN;` replaced; any other `&` is an error.
    /// Scalar by scalar: "&" followed by a combining mark is one Character (the fuzzer's find).
    static func resolved(_ text: String) throws(Failure) -> String {
        let text = normalizedLines(text)
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = String.UnicodeScalarView()
        var rest = text.unicodeScalars[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result.append(contentsOf: rest[..<ampersand])
            guard let semicolon = rest[ampersand...].prefix(12).firstIndex(of: ";") else {
                throw Failure(reason: "an & that is not a reference (write &amp;)")
            }
            let reference = String(String.UnicodeScalarView(rest[rest.index(after: ampersand) ..< semicolon]))
            switch reference {
            case "lt": result.append("<")
            case "gt": result.append(">")
            case "amp": result.append("&")
            case "quot": result.append("\"")
            case "apos": result.append("'")
            default:
                let hex = reference.hasPrefix("#x"), decimal = reference.hasPrefix("#")
                guard hex || decimal, let value = UInt32(reference.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10),
                      let scalar = Unicode.Scalar(value), isXMLCharacter(value) else {
                    throw Failure(reason: "&\(reference); is not a reference to a character XML allows")
                }
                result.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        result.append(contentsOf: rest)
        return String(result)
    }

    /// XML 1.0's Char: tab, LF, CR, and from space on, but not U+FFFE and U+FFFF.
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value != 0xFFFE && value != 0xFFFF)
    }

    /// CR LF and a lone CR read as LF, as XML says.
    static func normalizedLines(_ text: String) -> String {
        text.contains("\r") ? text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n") : text
    }
}
