import Foundation
import Testing

/// A mistyped `--database`: the commands that read what is saved say there
/// is no database there and create nothing (they used to make an empty one
/// and answer "No printers saved yet").
@Suite struct MissingDatabaseTests {
    @Test(arguments: [["printers", "list"], ["printers", "check"], ["drawer", "open", "receipt"], ["jobs", "list"],
                      ["jobs", "show", "1"], ["jobs", "cancel", "1"], ["jobs", "retry", "1"], ["tokens", "list"],
                      ["tokens", "revoke", "till"], ["status"]])
    func aCommandThatReadsSaysThereIsNoDatabaseAndCreatesNone(_ command: [String]) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-typo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let typo = folder + "/kiosprint.sqlite"
        let result = try await CommandRunner().run(command + ["--database", typo])
        #expect(result.status != 0, "\(command): \(result.output)")
        #expect((result.output + result.errors).contains("There is no database at \(typo)"), "\(command): \(result.output)\(result.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "\(command) created a file")
    }
}
