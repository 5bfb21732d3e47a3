import Foundation
import Store
import Testing

/// A database file that is not a database is reported with what to do, and
/// is never replaced by a new, empty one.
@Suite struct DamagedDatabaseTests {
    @Test func aDamagedFileIsNamedWithWhatToDoAndLeftAsItWas() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kioskprint.sqlite").path
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))

        do {
            _ = try KioskStore(path: path)
            Issue.record("a file that is not a database was opened")
        } catch {
            #expect(error == .storage(.damaged, path: path))
            #expect(error.description.contains("PRAGMA integrity_check") && error.description.contains("never replaced silently"))
        }
        #expect(FileManager.default.contents(atPath: path) == garbage, "the file is left exactly as it was")
    }
}
