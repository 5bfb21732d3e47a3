import Foundation
import Testing

/// docs/ARCHITECTURE.md's table of modules against Package.swift, as the
/// package manager reads it (`swift package dump-package`): every module of
/// ours has its row, and each row names every module of ours it depends on,
/// so the map a newcomer reads cannot drift from the build again.
@Suite struct ModuleMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Target: Decodable {
        var name: String
        var type: String
        var path: String?
        var dependencies: [Dependency]

        /// `{"byName": ["IPP", null]}` or `{"target": ["IPP", null]}`; a product of another
        /// package is `{"product": ["NIOEmbedded", "swift-nio", ...]}`.
        struct Dependency: Decodable {
            var byName: [String?]?
            var target: [String?]?
            var product: [String?]?
            var name: String? { (byName ?? target)?.first ?? nil }
            var productName: String? { product?.first ?? nil }
        }
    }

    struct Manifest: Decodable { var targets: [Target] }

    static func manifest() throws -> Manifest {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch folder of its own: `swift test` holds the package's .build lock while the tests run.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-dump-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        process.arguments = ["swift", "package", "--scratch-path", scratch, "dump-package", "--package-path", root.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(Manifest.self, from: data)
    }

    /// The rows of the table under "What each module holds", by module: `| \`NAME\` | holds | imports |`.
    static func rows() throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "### What each module holds").dropFirst().first,
                                   "docs/ARCHITECTURE.md has no section \"What each module holds\"")
        var rows: [String: String] = [:]
        for line in section.components(separatedBy: "\n### ")[0].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            rows[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[3]
        }
        return rows
    }

    @Test func everyModuleHasItsRowAndEveryDependencyOfOursIsNamed() throws {
        let targets = try Self.manifest().targets.filter { $0.type != "test" }
        let ours = Set(targets.map(\.name))
        let rows = try Self.rows()
        for target in targets {
            // The C modules share one row, `C*`.
            if target.path?.hasPrefix("Sources/CLibraries") == true { continue }
            guard let imports = rows[target.name] else {
                Issue.record("docs/ARCHITECTURE.md has no row for the module \(target.name)")
                continue
            }
            for dependency in target.dependencies.compactMap(\.name) where ours.contains(dependency) {
                let isC = targets.first { $0.name == dependency }?.path?.hasPrefix("Sources/CLibraries") == true
                #expect(imports.contains(dependency) || (isC && imports.contains("C")),
                        "\(target.name)'s row does not name \(dependency), which Package.swift gives it")
            }
        }
        for name in rows.keys where name != "C*" && !name.hasPrefix("C*") {
            #expect(ours.contains(name), "docs/ARCHITECTURE.md has a row for \(name), which Package.swift does not have")
        }
    }
}
