import Foundation
import PrintModel
@_spi(Testing) import Store
import Testing

/// `kioskprint jobs purge`, run through the real binary on a real database
/// and spool folder.
@Suite struct PurgeCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-purge-\(UUID().uuidString)").path
    var database: String { folder + "/kioskprint.sqlite" }
    var spool: String { folder + "/spool" }
    let receipt = try! Role("receipt")
    let day: TimeInterval = 86_400

    /// Four receipts with their copies in the spool folder, ended 60, 50, 40
    /// and 1 days ago, and one still queued; returns the copies' paths.
    func site() async throws -> [String] {
        let store = try KioskStore(path: database)
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        var copies: [String] = []
        for (index, age) in [60.0, 50, 40, 1].enumerated() {
            let ended = Date() - age * day
            let copy = spool + "/\(index)-receipt.pdf"
            try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: copy))
            copies.append(copy)
            let job = try await store.enqueue(name: "Receipt \(index)", role: receipt,
                                              content: .document(path: copy, format: "pdf"), at: ended - 5)
            _ = try #require(try await store.claimNext(role: receipt, owner: "test", lease: .seconds(30), now: ended - 4))
            try await store.markSending(jobID: job.id, owner: "test", printer: JobPrinter(id: 1, name: "TM", uri: "ipp://tm/ipp/print"),
                                        now: ended - 3)
            try await store.finish(jobID: job.id, owner: "test", state: .completed, now: ended)
        }
        _ = try await store.enqueue(name: "Waiting receipt", role: try Role("coupon"), content: .template(name: "receipt", dataJSON: "{}"))
        return copies
    }

    func configuration(_ text: String) throws -> String {
        let path = folder + "/kioskprint.toml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theConfigurationsLimitsApplyWithoutOptionsAndADryRunRemovesNothing() async throws {
        let copies = try await site()
        let config = try configuration("[retention]\nkeep-for = \"45d\"\nkeep-jobs = 100\n")
        let kioskprint = CommandRunner(environment: ["KIOSKPRINT_CONFIG": config, "KIOSKPRINT_DATABASE": database])

        let dry = try await kioskprint.run(["jobs", "purge", "--dry-run"])
        #expect(dry.status == 0, "\(dry.errors)")
        #expect(dry.output.contains("Would remove 2 finished jobs and 2 spool files"), "\(dry.output)")
        #expect(dry.output.contains("Limits: finished jobs older than 45d or beyond the newest 100"), "\(dry.output)")
        #expect(copies.allSatisfy { FileManager.default.fileExists(atPath: $0) })

        let purged = try await kioskprint.run(["jobs", "purge"])
        #expect(purged.status == 0, "\(purged.errors)")
        #expect(purged.output.contains("Removed 2 finished jobs and 2 spool files"), "\(purged.output)")
        #expect(copies.map { FileManager.default.fileExists(atPath: $0) } == [false, false, true, true])
        let left = try await KioskStore(path: database).jobs(includeFinished: true).map(\.name)
        #expect(left == ["Receipt 2", "Receipt 3", "Waiting receipt"])
    }

    @Test func optionsReplaceTheConfigurationsLimits() async throws {
        let copies = try await site()
        let kioskprint = CommandRunner(environment: ["KIOSKPRINT_DATABASE": database])
        let byAge = try await kioskprint.run(["jobs", "purge", "--older-than", "55d", "--config", try configuration("")])
        #expect(byAge.status == 0, "\(byAge.errors)")
        #expect(byAge.output.contains("Removed 1 finished job and 1 spool file"), "\(byAge.output)")
        #expect(byAge.output.contains("Limits: finished jobs older than 55d;"), "\(byAge.output)")

        // Keeping none still keeps the role's last job, and never touches the queued one.
        let byCount = try await kioskprint.run(["jobs", "purge", "--keep", "0", "--database", database])
        #expect(byCount.status == 0, "\(byCount.errors)")
        #expect(byCount.output.contains("Removed 2 finished jobs and 2 spool files"), "\(byCount.output)")
        #expect(copies.map { FileManager.default.fileExists(atPath: $0) } == [false, false, false, true])
        #expect(try await KioskStore(path: database).jobs(includeFinished: true).map(\.name) == ["Receipt 3", "Waiting receipt"])
    }

    @Test func aWrongValueOrConfigurationIsRefusedWithWhatToDo() async throws {
        _ = try await site()
        let kioskprint = CommandRunner(environment: ["KIOSKPRINT_DATABASE": database])
        let unit = try await kioskprint.run(["jobs", "purge", "--older-than", "4w"])
        #expect(unit.status != 0)
        #expect(unit.errors.contains(#"unknown unit "w"; use ms, s, m, h or d."#), "\(unit.errors)")
        let negative = try await kioskprint.run(["jobs", "purge", "--keep=-3"])
        #expect(negative.status != 0)
        #expect(negative.errors.contains("give 0 or more"), "\(negative.errors)")
        let config = try configuration("[retention]\nkeep-jobs = \"lots\"\n")
        let refused = try await kioskprint.run(["jobs", "purge", "--config", config])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("retention.keep-jobs: expected a whole number"), "\(refused.errors)")
        #expect(refused.errors.contains("Correct the configuration, or give --older-than and --keep."), "\(refused.errors)")
        #expect(try await KioskStore(path: database).jobCount() == 5)
    }
}
