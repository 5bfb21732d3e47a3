public import Foundation
public import PrintModel
public import Spooler

/// Where a raw connection's bytes go: queued as a job of the role, exactly
/// as they came (less the asks answered), or, when the queue will not take
/// them, kept in `refused/` beside the spool folder with the reason, so
/// nothing a till sent is lost. The till cannot be told: a port 9100 has no
/// way to refuse a job.
public struct RawJobKeeper: Sendable {
    public let intake: JobIntake
    /// `refused/`, beside the spool folder.
    public let refusedFolder: String

    public init(intake: JobIntake) {
        self.intake = intake
        refusedFolder = ((intake.spoolFolder as NSString).deletingLastPathComponent as NSString).appendingPathComponent("refused")
    }

    /// What became of one job's bytes.
    public enum Outcome: Sendable, Equatable {
        case queued(JobID)
        /// Refused, kept at the path, with the reason.
        case refused(path: String?, reason: String)
    }

    /// Queues `bytes` for `role`; `from` names the client in the job's source and in messages.
    public func keep(_ bytes: [UInt8], language: PrinterLanguage, role: Role, from client: String, port: Int) async -> Outcome {
        let file = "\(language) from \(client) on port \(port)"
        do {
            let job = try await intake.queueLanguageBytes(Data(bytes), language: language, file: "raw-\(role).\(language.rawValue)",
                                                          role: role, jobName: "\(role) raw job from \(client)",
                                                          source: "raw \(client) to port \(port)")
            return .queued(job.id)
        } catch {
            let reason = "\(file) was not queued: \(error.message)"
            return .refused(path: quarantine(bytes, language: language, role: role, reason: reason), reason: reason)
        }
    }

    /// Writes refused bytes and their reason to `refused/`; nil when even that fails.
    public func quarantine(_ bytes: [UInt8], language: PrinterLanguage, role: Role, reason: String) -> String? {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let path = (refusedFolder as NSString).appendingPathComponent("\(stamp)-\(role)-\(UUID().uuidString.prefix(8)).\(language.rawValue)")
        do {
            try FileManager.default.createDirectory(atPath: refusedFolder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o750])
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            try Data((reason + "\n").utf8).write(to: URL(fileURLWithPath: path + ".reason.txt"), options: .withoutOverwriting)
            return path
        } catch {
            return nil
        }
    }
}
