import Foundation
import Testing

/// docs/ARCHITECTURE.md's drawing of the layers, made from Package.swift:
/// each module sits one layer above the highest module of ours it imports,
/// so a module only ever looks down. The drawing in the file must be the
/// one this test makes; when it is not, the test prints the right one to
/// paste between the markers.
@Suite struct ModuleLayersTests {
    static let begin = "<!-- layers: made by Tests/DocsTests/ModuleLayersTests.swift -->"
    static let end = "<!-- end of layers -->"

    /// The drawing: the top layer first, one line per module, `Module ── what it imports of ours`.
    static func drawing(_ targets: [ModuleMapTests.Target]) -> String {
        let modules = targets.filter { $0.type != "test" }
        let isC = { (name: String) in modules.first { $0.name == name }?.path?.hasPrefix("Sources/CLibraries") == true }
        let ours = Set(modules.map(\.name).filter { !isC($0) })
        let imports = Dictionary(uniqueKeysWithValues: modules.filter { ours.contains($0.name) }.map { target in
            (target.name, target.dependencies.compactMap(\.name).filter { ours.contains($0) || isC($0) })
        })
        var layer: [String: Int] = [:]
        func depth(_ name: String) -> Int {
            if let known = layer[name] { return known }
            let below = (imports[name] ?? []).filter { ours.contains($0) }.map(depth)
            let value = (below.max() ?? -1) + 1
            layer[name] = value
            return value
        }
        ours.forEach { _ = depth($0) }
        let width = ours.map(\.count).max() ?? 0
        var lines: [String] = []
        for level in (0...(layer.values.max() ?? 0)).reversed() {
            lines.append("layer \(level)")
            for name in ours.filter({ layer[$0] == level }).sorted() {
                let ofOurs = (imports[name] ?? []).filter { ours.contains($0) }.sorted()
                let c = (imports[name] ?? []).filter(isC).sorted()
                let named = ofOurs + c
                let padded = name.padding(toLength: width, withPad: " ", startingAt: 0)
                lines.append("  \(padded) ── " + (named.isEmpty ? "nothing of ours" : named.joined(separator: ", ")))
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func theLayersDrawnAreTheOnesPackageSwiftMakes() throws {
        let made = Self.drawing(try ModuleMapTests.manifest().targets)
        let text = try String(contentsOf: ModuleMapTests.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let inFile = text.components(separatedBy: Self.begin).dropFirst().first?.components(separatedBy: Self.end).first
        let drawn = inFile?.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "```\n", with: "").replacingOccurrences(of: "\n```", with: "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(made.contains("layer 0") && made.contains("kioskprint"), "the package graph was not read")
        #expect(drawn == made, """
            docs/ARCHITECTURE.md's layers differ from Package.swift's. Put this between \(Self.begin) and \(Self.end):
            ```
            \(made)
            ```
            """)
    }
}
