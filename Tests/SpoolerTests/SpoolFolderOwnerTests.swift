import Foundation
import Glibc
import PrintModel
import Spooler
import Store
import Templates
import Testing

/// Issue 14: `sudo kioskprint print --file` must not leave a root-owned
/// spool folder that the service, running as its own user, cannot write to.
@Suite struct SpoolFolderOwnerTests {
    @Test func theSpoolFolderRootMakesGoesToTheOwnerOfTheDatabaseFolder() async throws {
        try #require(geteuid() == 0, "this test needs root")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-spoolowner-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = folder + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        #expect(chown(state, 4242, 4343) == 0)
        let store = try KioskStore(path: state + "/kioskprint.sqlite")
        let intake = JobIntake(store: store, catalog: TemplateCatalog(folders: []))
        let document = folder + "/ticket.pdf"
        try Data("%PDF-1.4\n".utf8).write(to: URL(fileURLWithPath: document))
        // Whether or not it is queued (no printer holds the role), its copy was made in the spool folder.
        _ = try? await intake.queueFile(document, role: try Role("receipt"))
        var info = stat()
        try #require(stat(intake.spoolFolder, &info) == 0, "the spool folder was made")
        #expect(info.st_uid == 4242 && info.st_gid == 4343)
        #expect(info.st_mode & 0o777 == 0o700)
    }
}
