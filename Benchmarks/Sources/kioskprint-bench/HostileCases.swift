import BenchSupport
import Foundation
import Simulator

/// The hostile inputs of issue 14, as files a program on the kiosk could
/// drop into the agent's watched folders (and one template an integrator
/// could leave in its templates folder). Each must end in `failed/` with an
/// `.error`, or be printed within the limits, without the agent growing.
struct HostileCase: Sendable {
    enum Folder: Sendable { case receipts, labels }

    /// What the table calls it.
    let title: String
    let folder: Folder
    /// The file's name as bytes: some are not UTF-8 on purpose.
    let name: [UInt8]
    let contents: Data
    /// A template written into the templates folder before the case is dropped.
    var template: (name: String, markup: String)?

    /// The cases, in the order they are dropped.
    static func all() throws -> [HostileCase] {
        var cases: [HostileCase] = []
        func add(_ title: String, _ folder: Folder, _ name: String, _ contents: Data) {
            cases.append(HostileCase(title: title, folder: folder, name: Array(name.utf8), contents: contents))
        }
        // The sample receipt with 20,000 items (under the folder's 1 MB): 87 m of paper, far past any real one.
        guard var receipt = try JSONSerialization.jsonObject(with: Data(try ReceiptSample.json().utf8)) as? [String: Any] else {
            throw BenchError("the receipt's sample data is not a JSON object")
        }
        receipt["items"] = (1...20_000).map { ["name": "I\($0)", "qty": 1, "total": "1"] as [String: Any] }
        let items = try JSONSerialization.data(withJSONObject: receipt)
        add("receipt of 20,000 items (\(items.count / 1024) KB)", .receipts, "h-20000-items.json", items)
        add("JSON nested 100,000 deep", .receipts, "h-deep-json.json",
            Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8))
        add("data that is not UTF-8", .receipts, "h-latin1.json", Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xE9, 0x22, 0x7D]))
        add("an integer over 64 bits", .receipts, "h-bigint.json",
            Data(#"{"items":[{"name":"x","qty":123456789012345678901234567890,"total":"1"}]}"#.utf8))
        add("malformed JSON", .receipts, "h-malformed.json", Data(#"{"items": [ {"name": "x", }"#.utf8))
        cases.append(HostileCase(title: "a file name that is not UTF-8", folder: .receipts,
                                 name: Array("h-name-".utf8) + [0xFF, 0xFE] + Array(".json".utf8),
                                 contents: Data(try ReceiptSample.json().utf8)))
        add("a file name of 250 bytes", .receipts, "h-" + String(repeating: "n", count: 243) + ".json",
            Data(try ReceiptSample.json().utf8))
        add("an envelope naming a template by path", .labels, "h-path.json",
            Data(#"{"template":"/etc/passwd","role":"label","data":{}}"#.utf8))
        add("a job name with a NUL and 300 characters", .labels, "h-name-nul.json",
            Data(#"{"template":"shipping-label","role":"label","name":"a\u0000\#(String(repeating: "b", count: 300))","data":{}}"#.utf8))
        // 5 KB of PNG that declares 10000 x 4000 pixels: 40 megapixels, 160 MB decoded.
        add("a PNG declaring 10000 x 4000 pixels", .labels, "h-huge.png", Data(pngDeclaring(width: 10_000, height: 4_000)))
        // 80,000 deep fits the 1 MB template limit, so the nesting limit is what refuses it.
        var deep = HostileCase(title: "a template nested 80,000 deep", folder: .labels, name: Array("h-deep-template.json".utf8),
                               contents: Data(#"{"template":"bench-deep","role":"label","data":{}}"#.utf8))
        deep.template = ("bench-deep", "<template page=\"roll\">" + String(repeating: "{{#a}}", count: 80_000)
            + String(repeating: "{{/a}}", count: 80_000) + "</template>")
        cases.append(deep)
        return cases
    }
}
