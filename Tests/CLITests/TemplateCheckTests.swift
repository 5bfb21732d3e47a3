import Foundation
import Testing

/// `kioskprint templates check`, as an integrator runs it on a file.
@Suite struct TemplateCheckTests {
    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-template-\(UUID().uuidString).xml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aGoodTemplateIsOKAndABadOneIsReportedByLineAndColumn() async throws {
        let good = try write("<template>\n  <text bold=\"true\">{{store}}</text>\n</template>")
        let bad = try write("<template>\n  <text>ok</text>\n  <barcod type=\"qr\">1</barcod>\n</template>")
        let result = try await CommandRunner().run(["templates", "check", good, bad])
        #expect(result.status == 1)
        #expect(result.output.contains("\(good): OK"))
        #expect(result.output.contains("\(bad):3:3: unknown element <barcod>. Did you mean <barcode>?"))
    }

    @Test func aMissingFileIsNamed() async throws {
        let result = try await CommandRunner().run(["templates", "check", "/nonexistent/receipt.xml"])
        #expect(result.status == 1)
        #expect(result.output.contains("The template file /nonexistent/receipt.xml does not exist. Check the path."))
    }

    /// Data that makes every section `a` true, so each level is entered: what made deep nesting crash.
    func sectionData() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-data-\(UUID().uuidString).json").path
        try #"{"a": true}"#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Issue 14: 200,000 nested sections overflowed the stack (exit 139 with this data, before).
    @Test func aTemplateNested200000DeepIsRefusedNotACrash() async throws {
        let levels = 200_000
        let path = try write("<template>\n" + String(repeating: "{{#a}}", count: levels) + "<text>x</text>"
            + String(repeating: "{{/a}}", count: levels) + "\n</template>")
        let data = try sectionData()
        defer { for file in [path, data] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await CommandRunner().run(["templates", "check", path, "--data", data])
        #expect(result.status == 1, "\(result.status): \(result.output)")
        #expect(result.output.contains("more than the 1 MB (1048576 bytes) a template may be"), "\(result.output)")
    }

    /// Under the size limit, nesting past 64 levels is refused at its place, naming the limit
    /// (80,000 levels crashed too, before), between blocks and inside one text.
    @Test func aTemplateNestedPastTheLimitIsRefusedWithItsPlace() async throws {
        let levels = 80_000
        let between = try write("<template>\n" + String(repeating: "{{#a}}", count: levels) + "<text>x</text>"
            + String(repeating: "{{/a}}", count: levels) + "\n</template>")
        let inText = try write("<template>\n<text>" + String(repeating: "{{#a}}", count: levels) + "x"
            + String(repeating: "{{/a}}", count: levels) + "</text>\n</template>")
        let data = try sectionData()
        defer { for file in [between, inText, data] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await CommandRunner().run(["templates", "check", between, "--data", data])
        #expect(result.status == 1, "\(result.status): \(result.output)")
        #expect(result.output.contains("error: \(between):2:\(6 * 63 + 1): "), "\(result.output)")
        #expect(result.output.contains("{{#a}} is nested 65 deep, more than the 64 levels"), "\(result.output)")
        let text = try await CommandRunner().run(["templates", "check", inText, "--data", data])
        #expect(text.status == 1, "\(text.status): \(text.output)")
        #expect(text.output.contains("error: \(inText):2:1: "), "\(text.output)")
        #expect(text.output.contains("{{#a}} is nested 65 deep in this text, more than the 64 levels"), "\(text.output)")
    }
}
