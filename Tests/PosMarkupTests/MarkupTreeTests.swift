import Foundation
@testable import PosMarkup
import Templates
import Testing

/// The XML reader of our own that both POS dialects go through: what it
/// reads, what it refuses and why, and, against expat (Python's XML parser,
/// a reader nobody here wrote), the same tree for every document expat reads.
@Suite struct MarkupTreeTests {
    static func read(_ text: String) throws -> XMLElementNode { try MarkupTree.read(Data(text.utf8)) }

    static func refusal(_ text: String) -> String? {
        do { _ = try read(text); return nil } catch { return (error as? PosMarkupError)?.message ?? "\(error)" }
    }

    @Test func referencesCDATACommentsAndNamespacesRead() throws {
        let root = try Self.read("""
            <?xml version="1.0" encoding="utf-8"?>\r\n<!-- a till -->
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>
            <text a='1 &amp; 2' b="x\ty">A &lt;B&gt; &#233;&#x20AC;\r\nC<![CDATA[<raw & bytes>]]></text><?pi?></s:Body></s:Envelope>
            """)
        #expect(root.name == "Envelope" && root.attributes["xmlns:s"] == "http://schemas.xmlsoap.org/soap/envelope/")
        let text = try #require(root.first(named: "text"))
        #expect(text.attributes == ["a": "1 & 2", "b": "x y"])
        #expect(text.text == "A <B> é€\nC<raw & bytes>")
    }

    @Test(arguments: [
        ("<a><b></a>", "</a> closes <b>"),
        ("<a b=1/>", "an attribute of <a> is not quoted"),
        ("<a>fish & chips</a>", "an & that is not a reference"),
        ("<a>&nbsp;</a>", "&nbsp; is not a reference to a character XML allows"),
        ("<a>&#1;</a>", "&#1; is not a reference to a character XML allows"),
        // "&" and a combining mark are one Character: the fuzzer found it passing as text (kept in its corpus).
        ("<a>0.60&\u{0614}o#9;</a>", "&\u{0614}o#9; is not a reference to a character XML allows"),
        (#"<a b="1" b="2"/>"#, "<a> has the attribute b twice"),
        ("text<a/>", "text outside the root element"),
        ("<a/><b/>", "a second root element"),
        ("<a>", "<a> is not closed"),
        ("<a><!-- open", "a comment is not closed"),
        (#"<a b="<"/>"#, "an attribute of <a> holds <"),
        ("<1a/>", "a name was expected"),
        ("", "no element"),
    ])
    func malformedDocumentsAreRefusedWithWhatIsWrong(_ text: String, reason: String) {
        let message = Self.refusal(text)
        #expect(message?.hasPrefix("the request is not well-formed XML (\(reason)") == true, "\(message ?? "read")")
    }

    /// The same pair escaped for the template markup: scalar by scalar, so the "&" is escaped.
    @Test func anAmpersandBeforeACombiningMarkIsEscaped() {
        #expect(MarkupEscaping.text("a&\u{0301}<b") == "a&amp;\u{0301}&lt;b")
    }

    /// The billion laughs and an external entity: no DOCTYPE is read at all.
    @Test func aDoctypeIsRefusedSoNoEntityIsEverExpanded() {
        let laughs = #"<!DOCTYPE a [<!ENTITY l "lol"><!ENTITY l2 "&l;&l;&l;&l;&l;&l;&l;&l;&l;&l;">]><a>&l2;</a>"#
        let external = #"<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>"#
        for text in [laughs, external] {
            #expect(Self.refusal(text)?.contains("a DOCTYPE or declaration, which a POS request never needs") == true)
        }
    }

    @Test func theLimitsAreSaidAsLimits() {
        let deep = String(repeating: "<a>", count: 33) + String(repeating: "</a>", count: 33)
        #expect(Self.refusal(deep) == "the request nests elements more than 32 deep.")
        let many = "<r>" + String(repeating: "<a/>", count: 20_000) + "</r>"
        #expect(Self.refusal(many)?.hasPrefix("the request has more than 20000 elements") == true)
        #expect(Self.refusal(String(repeating: "<a>", count: 32) + String(repeating: "</a>", count: 32)) == nil)
    }

    /// The input that stopped the process under FoundationXML: a name that is not UTF-8.
    @Test func bytesThatAreNotUTF8AreRefusedNotATrap() {
        #expect(throws: PosMarkupError.self) { try MarkupTree.read(Data([0x3C, 0x61, 0x20, 0xC3, 0x28, 0x3D, 0x22, 0x22, 0x2F, 0x3E])) }
    }

    // MARK: against expat

    /// One line a document: the tree as `name[attr=value,...]{text}(children)`, or ERROR.
    static func dump(_ node: XMLElementNode) -> String {
        let attributes = node.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\(escape($0.value))" }.joined(separator: ",")
        return "\(node.name)[\(attributes)]{\(escape(node.text))}(\(node.children.map(dump).joined()))"
    }

    static func escape(_ text: String) -> String {
        text.unicodeScalars.map { $0.value < 0x20 || "[]{}(),=\\".unicodeScalars.contains($0) ? "\\u\(String($0.value, radix: 16))" : String($0) }.joined()
    }

    static let expatDump = #"""
        import sys, xml.parsers.expat
        def esc(t):
            return "".join("\\u%x" % ord(c) if ord(c) < 0x20 or c in "[]{}(),=\\" else c for c in t)
        def dump(path):
            stack, out = [], []
            def start(name, attrs):
                stack.append([name.split(":")[-1], attrs, [], []])
            def end(name):
                n, a, text, kids = stack.pop()
                s = "%s[%s]{%s}(%s)" % (n, ",".join("%s=%s" % (k, esc(a[k])) for k in sorted(a)), esc("".join(text)), "".join(kids))
                (stack[-1][3] if stack else out).append(s)
            def chars(data):
                if stack: stack[-1][2].append(data)
            p = xml.parsers.expat.ParserCreate()
            p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = start, end, chars
            try:
                p.Parse(open(path, "rb").read(), True)
                return out[0]
            except Exception:
                return "ERROR"
        for path in sys.argv[1:]:
            print(dump(path))
        """#

    @Test func everyCorpusDocumentExpatReadsReadsAsTheSameTree() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/corpus")
        var paths: [String] = []
        for target in ["epos-request", "webprnt-request"] {
            let folder = corpus.appendingPathComponent(target)
            paths += try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { folder.appendingPathComponent($0).path }
        }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-expat-dump-\(getpid()).py")
        try Data(Self.expatDump.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let python = Process(), output = Pipe()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [script.path] + paths
        python.standardOutput = output
        try python.run()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0 && lines.count >= paths.count, "expat's dump: \(lines.count) lines for \(paths.count) files")
        var compared = 0
        for (path, expat) in zip(paths, lines) where expat != "ERROR" {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            if String(decoding: data, as: UTF8.self).contains("<!DOCTYPE") {
                #expect(throws: PosMarkupError.self, "a DOCTYPE is refused: \(path)") { try MarkupTree.read(data) }
                continue
            }
            let ours = (try? MarkupTree.read(data)).map(Self.dump) ?? "ERROR"
            #expect(ours == String(expat), "\(path)")
            compared += 1
        }
        #expect(compared >= 200, "documents expat read, compared: \(compared)")
    }
}
