import KioskConfiguration
import Foundation
import Logging
import Metrics
import PrintModel
import Spooler
import Triggers

/// One watched folder at work: each file claimed from it becomes a queued
/// job (then it moves to `done/`) or is refused (then it moves to `failed/`
/// with its reason). It only queues; the spooler prints.
struct FolderJobs: Sendable {
    let settings: FolderSettings
    let intake: JobIntake
    let logger: Logger
    /// Tells the spooler a job is waiting.
    let jobQueued: @Sendable () -> Void

    /// Watches the folder until the task is cancelled.
    func run() async throws {
        let folder = try WatchedFolder(path: settings.path, options: .init(maxFileSize: settings.maxFileSize,
                                                                           doneLimit: settings.doneLimit))
        logger.info("watching \(settings.path) (\(settings.key)): \(describe())")
        let logger = logger, folderPath = settings.path
        let files = try folder.claimedFiles { report in
            let metadata: Logger.Metadata = ["folder": "\(folderPath)"]
            switch report {
            case .refused(let name, let explanation):
                Self.countRefused(in: folderPath)
                logger.warning("\(name) in \(folderPath) refused unopened and moved to failed/: \(explanation)", metadata: metadata)
            case .trouble(let message): logger.error("\(message)", metadata: metadata)
            case .gone(let message): logger.warning("\(message)", metadata: metadata)
            case .watchedAgain(let message), .recovered(let message): logger.notice("\(message)", metadata: metadata)
            }
        }
        for await file in files {
            // A file once claimed is seen through to done/ or failed/ even
            // if the agent is stopping: the intake is not cancelled midway.
            await Task.detached { await take(file) }.value
        }
    }

    /// Queues one claimed file, or refuses it with the reason.
    func take(_ file: ClaimedFile) async {
        // A file offered again after a crash may have been queued already,
        // just before the crash, by the claim that put it in processing/.
        // Only such a file is looked up. Millisecond slack: the database
        // keeps milliseconds.
        if file.wasInterrupted, let claimed = file.claimedAt,
           let queued = try? await intake.store.job(source: file.path, since: claimed.addingTimeInterval(-0.002)) {
            _ = try? file.finish()
            logger.notice("\(file.originalName) was already queued as job \(queued.id) before the agent stopped; not queued again.",
                          metadata: ["job": "\(queued.id)", "folder": "\(settings.path)"])
            return
        }
        do {
            let job = try await queue(file)
            do { try file.finish() } catch {
                // Logged at error: it stays in processing/, and done/ may be a link or another user's folder.
                logger.error("\(file.originalName) was queued as job \(job.id) but could not be moved to done/: \(error)",
                             metadata: ["job": "\(job.id)", "folder": "\(settings.path)"])
            }
            logger.info("\(file.originalName) queued as job \(job.id) \"\(job.name)\" for \(job.role)",
                        metadata: ["job": "\(job.id)", "role": "\(job.role)", "folder": "\(settings.path)"])
            jobQueued()
        } catch {
            let reason = "\(file.originalName) was not printed: \(error.reason)\n"
                + (error.retryable
                    ? "Nothing is wrong with the file itself as far as the agent can tell; move it back into \(settings.path) to try again.\n"
                    : "Correct the file and drop it into \(settings.path) again.\n")
            Self.countRefused(in: settings.path)
            do {
                let kept = try file.fail(reason: reason)
                logger.error("\(file.originalName) refused, kept as \(kept): \(error.reason)",
                             metadata: ["folder": "\(settings.path)"])
            } catch let moveError {
                logger.error(Logger.Message(stringLiteral: "\(file.originalName) refused (\(error.reason)) and could not be moved to failed/ (\(moveError)); "
                    + "it stays in \(file.path)."))
            }
        }
    }

    private func queue(_ file: ClaimedFile) async throws(FolderJobError) -> PrintJob {
        let kind = (file.originalName as NSString).pathExtension.lowercased()
        do {
            switch kind {
            case "json":
                guard let bytes = FileManager.default.contents(atPath: file.path) else {
                    throw FolderJobError("it could not be read.", retryable: true)
                }
                if let template = settings.template, let role = settings.role {
                    return try await intake.queueTemplate(template, data: bytes,
                                                          dataFile: file.originalName, role: role,
                                                          jobName: jobName(file), source: file.path)
                }
                let envelope: JobEnvelope
                do { envelope = try JobEnvelope(json: bytes, file: file.originalName) } catch {
                    throw FolderJobError(error.reason, retryable: false)
                }
                guard let role = envelope.role ?? settings.role else {
                    throw FolderJobError("it does not say which role prints it: add \"role\": \"NAME\" to the file, "
                        + "or give the folder a role in the agent's configuration (\(settings.key).role).", retryable: false)
                }
                return try await queue(envelope, from: file, role: role)
            case "pdf", "png", "jpg", "jpeg", _ where PrinterLanguage(fileExtension: kind) != nil:
                guard let role = settings.role else {
                    throw FolderJobError("this folder has no role, so a \(kind.uppercased()) file has no printer. "
                        + "Give the folder a role in the agent's configuration (\(settings.key).role).", retryable: false)
                }
                // .zpl, .escpos and Star's endings are passed through, and only to a role with a printer of that language.
                return try await intake.queueFile(file.path, role: role, jobName: jobName(file), source: file.path)
            default:
                throw FolderJobError("it is not a job file. This folder takes .json job files"
                    + (settings.role == nil ? "" : ", PDF, PNG or JPEG files, and ZPL (.zpl), ESC/POS (.escpos) or Star (.stargraphic, .starline, .starprnt) files")
                    + ".", retryable: false)
            }
        } catch let error as IntakeError {
            throw FolderJobError(error.message, retryable: error.kind == .notStored)
        } catch let error as FolderJobError {
            throw error
        } catch {
            throw FolderJobError("\(error)", retryable: true)
        }
    }

    /// Queues what an envelope holds: a template with its data, or printer-language bytes.
    private func queue(_ envelope: JobEnvelope, from file: ClaimedFile, role: Role) async throws(IntakeError) -> PrintJob {
        switch envelope.content {
        case .template(let template, let dataJSON):
            try await intake.queueTemplate(template, dataJSON: dataJSON, dataFile: file.originalName, role: role,
                                           jobName: envelope.name ?? jobName(file), copies: envelope.copies, source: file.path,
                                           opensDrawer: envelope.opensDrawer)
        case .printerLanguage(let language, let bytes):
            try await intake.queueLanguageBytes(bytes, language: language, file: file.originalName, role: role,
                                                jobName: envelope.name ?? jobName(file), copies: envelope.copies,
                                                source: file.path, opensDrawer: envelope.opensDrawer)
        }
    }

    /// One more file this folder refused, for `kioskprint_refused_files_total{folder}`.
    static func countRefused(in folder: String) {
        Counter(label: MetricCatalog.refusedFiles, dimensions: [("folder", folder)]).increment()
    }

    /// The job's name: the file's name without its extension, made a usable job name (see `JobName`).
    private func jobName(_ file: ClaimedFile) -> String {
        JobName.cleaned((file.originalName as NSString).deletingPathExtension)
    }

    private func describe() -> String {
        switch (settings.template, settings.role) {
        case (let template?, let role?): ".json files are \(template) data for \(role)"
        case (nil, let role?): "job files for \(role)"
        case (nil, nil), (_, nil): "job files naming their role"
        }
    }
}

/// Why a claimed file was not queued, and whether trying again may help.
struct FolderJobError: Error {
    let reason: String
    let retryable: Bool
    init(_ reason: String, retryable: Bool) {
        self.reason = reason
        self.retryable = retryable
    }
}
