import ArgumentParser
import CommandLineOutput
import KioskConfiguration
import Foundation
import Spooler
import Store

/// `kioskprint jobs purge [--older-than D] [--keep N] [--dry-run]`: what the
/// running agent does every `purge-every`, on demand.
struct PurgeJobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove old finished jobs and their spool files.",
        discussion: """
        Removes completed, failed, canceled and aborted jobs older than --older-than or beyond the newest --keep \
        finished ones, and the files they left in the spool folder. Each role's last job (and last completed one) \
        stays, for a reprint; jobs still on their way, held or set aside are never removed. Without either option, \
        the configuration's [retention] keep-for and keep-jobs apply (default 30d and 20000); with one or both, only those.
        """)

    @Option(help: ArgumentHelp("Remove finished jobs that ended longer ago than this, e.g. 30d, 12h.", valueName: "duration"))
    var olderThan: String?

    @Option(help: ArgumentHelp("Keep only this many of the newest finished jobs.", valueName: "count"))
    var keep: Int?

    @Flag(help: "Say what would be removed, and remove nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("The configuration file whose [retention] and database apply (default: as `kioskprint run`).",
                               valueName: "path"))
    var config: String?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if let keep, keep < 0 { throw ValidationError("--keep \(keep): give 0 or more finished jobs to keep.") }
        if let olderThan {
            do { _ = try ConfigValues.duration(olderThan) } catch { throw ValidationError("--older-than \(error.message)") }
        }
    }

    func run() async throws {
        let settings: AgentConfiguration
        do { settings = try RunCommand.load(ConfigurationFile.locate(explicit: config)) } catch let refused as RunCommand.Refused {
            throw CLIError(refused.error.description + "\nCorrect the configuration, or give --older-than and --keep.")
        }
        var retention = JobRetention(store: try KioskStore(path: DatabaseLocation.resolve(explicit: database.database ?? settings.database), use: .command),
                                     keepFor: settings.retention.keepFor, keepJobs: settings.retention.keepJobs)
        if olderThan != nil || keep != nil {
            retention.keepFor = try olderThan.map { try ConfigValues.duration($0) }
            retention.keepJobs = keep
        }
        let limits = [retention.keepFor.map { "older than \(ConfigValues.describe($0))" }, retention.keepJobs.map { "beyond the newest \($0)" }]
            .compactMap { $0 }.joined(separator: " or ")
        let report = try await CLIError.wrapAsync { try await retention.purge(dryRun: dryRun) }
        print("\(report.description) Limits: finished jobs \(limits); each role's last job is kept.")
        if !report.filesKept.isEmpty { throw ExitCode(1) }
    }
}
