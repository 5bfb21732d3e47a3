import Foundation
import Testing
@testable import Templates

/// Hostile templates and data (issue 14): refused with the limit named,
/// before anything recursive runs over them.
@Suite struct InputLimitTests {
    /// The problems `TemplateParser.parse` reports, or [] when it reads.
    func parseProblems(_ text: String) -> [String] {
        do {
            _ = try TemplateParser.parse(text, file: "deep.xml")
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    /// `<template>`, `boxes` nested boxes, and a text inside the innermost.
    func nestedBoxes(_ boxes: Int) -> String {
        "<template>\n" + String(repeating: "<box>", count: boxes) + "<text>x</text>"
            + String(repeating: "</box>", count: boxes) + "\n</template>"
    }

    /// Found by the fuzzer: a root other than <template> trapped on an empty stack.
    @Test func aRootOtherThanTemplateIsAProblemNotATrap() {
        let problems = parseProblems("<text>x</text>")
        #expect(problems.contains { $0.contains("<text> must be inside <template>.") }, "\(problems)")
        #expect(parseProblems("<header><text>x</text></header>").contains { $0.contains("<header> must be inside <template>.") })
    }

    @Test func elementsNestedToTheLimitReadAndOneMoreIsRefusedAtItsPlace() {
        // <template> + 62 boxes + <text> is 64 levels.
        #expect(parseProblems(nestedBoxes(TemplateLimits.maximumNesting - 2)) == [])
        let problems = parseProblems(nestedBoxes(TemplateLimits.maximumNesting - 1))
        #expect(problems.count == 1, "\(problems)")
        let column = 5 * (TemplateLimits.maximumNesting - 1) + 1
        #expect(problems.first?.hasPrefix("deep.xml:2:\(column): <text> is nested 65 deep, more than the 64 levels") == true,
                "\(problems)")
    }

    @Test func sectionsBetweenBlocksCountTowardTheLimit() {
        let text = "<template>\n" + String(repeating: "{{#a}}", count: 1_000) + "<text>x</text>"
            + String(repeating: "{{/a}}", count: 1_000) + "\n</template>"
        let problems = parseProblems(text)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.contains("{{#a}} is nested 65 deep, more than the 64 levels of elements and {{#sections}}") == true,
                "\(problems)")
        // At the 64th {{#a}} after <template>, the one that goes past the limit.
        #expect(problems.first?.hasPrefix("deep.xml:2:\(6 * 63 + 1): ") == true, "\(problems)")
    }

    @Test func sectionsInsideOneTextAreHeldToTheSameLimit() throws {
        let text = "<template><text>" + String(repeating: "{{#a}}", count: 10_000) + "x"
            + String(repeating: "{{/a}}", count: 10_000) + "</text></template>"
        let document = try TemplateParser.parse(text, file: "deep.xml")
        let problems = DataBinder.bindReporting(document, data: .object(["a": .bool(true)])).diagnostics.map(\.description)
        #expect(problems.contains { $0.contains("{{#a}} is nested 65 deep in this text, more than the 64 levels") }, "\(problems)")
    }

    @Test func aTemplateOverTheSizeLimitIsRefusedUnparsed() {
        let filler = String(repeating: "<space height=\"1mm\"/>\n", count: TemplateLimits.maximumTemplateBytes / 20)
        let problems = parseProblems("<template>\n" + filler + "</template>")
        let size = ("<template>\n" + filler + "</template>").utf8.count
        #expect(problems == ["deep.xml:1:1: the template is \(size) bytes, more than the 1 MB (1048576 bytes) a template may be. "
            + "A template describes one layout; repeat blocks with a {{#section}} over the data instead of writing them out."],
                "\(problems)")
    }

    @Test func aTemplateFileOverTheSizeLimitIsRefusedUnread() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kp-limits-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/huge.xml"
        try Data(repeating: UInt8(ascii: " "), count: TemplateLimits.maximumTemplateBytes + 1).write(to: URL(fileURLWithPath: path))
        #expect(throws: TemplateLookupError.tooLarge(path: path, bytes: TemplateLimits.maximumTemplateBytes + 1)) {
            try TemplateCatalog(folders: [folder]).find("huge")
        }
    }

    @Test func dataOverTheSizeLimitIsRefusedUnparsed() {
        let json = Data(("{\"a\":\"" + String(repeating: "x", count: TemplateLimits.maximumDataBytes) + "\"}").utf8)
        #expect {
            try TemplateData(json: json, file: "big.json")
        } throws: { error in
            "\(error)".hasPrefix("big.json:1:1: the data is \(json.count) bytes, more than the 4 MB (4194304 bytes) a job's data may be.")
        }
    }

    @Test func dataNestedPastTheLimitIsRefused() {
        let depth = TemplateLimits.maximumDataNesting + 1
        let json = Data((String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
        #expect {
            try TemplateData(json: json, file: "deep.json")
        } throws: { error in
            "\(error)".contains("the values are nested more than 200 deep, the most a job's data may have")
        }
    }

    /// Issue 14: such an integer used to print as 1.2345678901234567e+19.
    @Test func anIntegerBeyond64BitsIsRefusedNotRounded() throws {
        #expect {
            try TemplateData(json: Data(#"{"id": 12345678901234567890}"#.utf8), file: "order.json")
        } throws: { error in
            "\(error)".hasPrefix("order.json:1:8: the JSON is malformed: 12345678901234567890 is a whole number beyond 64 bits")
        }
        #expect(try TemplateData(json: Data(#"{"id": 9223372036854775807, "x": 1.5e30}"#.utf8), file: "order.json")
            == .object(["id": .integer(Int.max), "x": .number(1.5e30)]))
    }
}
