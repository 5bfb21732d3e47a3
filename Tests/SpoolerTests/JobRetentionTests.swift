import Foundation
import PrintModel
import Spooler
@_spi(Testing) import Store
import Templates
import Testing

/// The purge the agent and `jobs purge` share: finished jobs out of the
/// database, their copies out of the spool folder, and nothing else touched.
@Suite struct JobRetentionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-retention-\(UUID().uuidString)").path
    let receipt = try! Role("receipt")
    let month = Duration.seconds(30 * 86_400)

    /// A small PDF that passes intake's checks.
    func pdf(_ name: String, bytes: Int = 4_000) throws -> String {
        let path = folder + "/in/" + name
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        let body = "%PDF-1.4\n%" + String(repeating: "k", count: bytes) + "\n%%EOF\n"
        try Data(body.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Takes the role's next job through the spooler's steps to completed.
    func complete(_ store: KioskStore) async throws {
        let job = try #require(try await store.claimNext(role: receipt, owner: "test", lease: .seconds(30)))
        try await store.markSending(jobID: job.id, owner: "test", printer: JobPrinter(id: 1, name: "TM", uri: "ipp://tm/ipp/print"))
        try await store.finish(jobID: job.id, owner: "test", state: .completed)
    }

    @Test func finishedJobsAndTheirSpoolFilesGoAndNothingOutsideTheSpoolFolderIsTouched() async throws {
        let store = try KioskStore(path: folder + "/kioskprint.sqlite")
        let intake = JobIntake(store: store, catalog: TemplateCatalog())
        var spooled: [String] = []
        for name in ["a.pdf", "b.pdf", "c.pdf"] {
            let job = try await intake.queueFile(try pdf(name), role: receipt)
            guard case .document(let path, _) = job.content else { Issue.record("not a document: \(job.content)"); return }
            spooled.append(path)
            try await complete(store)
        }
        #expect(spooled.allSatisfy { $0.hasPrefix(intake.spoolFolder + "/") })
        // A job naming a file elsewhere, and a link in the spool folder to a file elsewhere: neither file is deleted.
        let outside = try pdf("shop-menu.pdf")
        let link = intake.spoolFolder + "/link-menu.pdf"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        for path in [outside, link] {
            _ = try await intake.queue(name: "menu", role: receipt, content: .document(path: path, format: "pdf"))
            try await complete(store)
        }
        _ = try await intake.queueFile(try pdf("last.pdf"), role: receipt)
        try await complete(store)

        let retention = JobRetention(store: store, keepFor: month, keepJobs: nil)
        let later = Date() + 31 * 86_400
        let dry = try await retention.purge(dryRun: true, now: later)
        #expect(dry.jobs == 5 && dry.files == 3 && dry.spoolBytes > 12_000)
        #expect(dry.description.hasPrefix("Would remove 5 finished jobs and 3 spool files"), "\(dry)")
        #expect(try await store.jobCount() == 6)
        #expect(spooled.allSatisfy { FileManager.default.fileExists(atPath: $0) })

        let report = try await retention.purge(now: later)
        #expect(report.jobs == 5 && report.files == 3 && report.spoolBytes == dry.spoolBytes && report.filesKept.isEmpty)
        #expect(report.description.hasPrefix("Removed 5 finished jobs and 3 spool files"), "\(report)")
        #expect(spooled.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        #expect(FileManager.default.fileExists(atPath: outside))
        // The link is left as it is: only plain files are deleted.
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == outside)
        // The role's last job stays, with its file, for a reprint.
        let last = try #require(try await store.lastJob(role: receipt))
        guard case .document(let lastPath, _) = last.content else { Issue.record("not a document"); return }
        #expect(FileManager.default.fileExists(atPath: lastPath))
        #expect(try await retention.purge(now: later).description == "Nothing to purge: no finished job is past the limits.")
    }

    @Test func aSpoolPathThatIsNoLongerAPlainFileIsLeftAlone() async throws {
        let store = try KioskStore(path: folder + "/kioskprint.sqlite")
        let intake = JobIntake(store: store, catalog: TemplateCatalog())
        for name in ["a.pdf", "b.pdf"] {
            _ = try await intake.queueFile(try pdf(name), role: receipt)
            try await complete(store)
        }
        // Someone replaced the first job's copy by a folder of the same name.
        let first = try #require(try await store.jobs(includeFinished: true).first)
        guard case .document(let path, _) = first.content else { Issue.record("not a document"); return }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let report = try await JobRetention(store: store, keepFor: nil, keepJobs: 0).purge()
        // Not a plain file any more: left alone, neither counted nor deleted.
        #expect(report.jobs == 1 && report.files == 0 && report.filesKept.isEmpty)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
