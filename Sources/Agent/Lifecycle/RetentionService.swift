import KioskConfiguration
import Logging
import ServiceLifecycle
import Spooler
import Store

/// Purges finished jobs at start and then every `purge-every`, with the
/// `[retention]` settings in force (a reload's new ones from the next
/// purge). A purge that fails is logged with what to do and tried again at
/// the next turn; printing never waits for it or stops because of it.
struct RetentionService: Service {
    let store: KioskStore
    let spoolFolder: String
    let logger: Logger
    /// The settings in force, read at each turn.
    let settings: @Sendable () -> RetentionSettings

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let current = settings()
            await purgeOnce(current)
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: current.purgeEvery) } } catch { return }
        }
    }

    /// One purge, logged: what it removed at info, a failure at error.
    func purgeOnce(_ settings: RetentionSettings) async {
        let retention = JobRetention(store: store, spoolFolder: spoolFolder, keepFor: settings.keepFor, keepJobs: settings.keepJobs)
        do {
            let report = try await retention.purge()
            guard report.jobs > 0 else { return }
            let level: Logger.Level = report.filesKept.isEmpty ? .info : .warning
            logger.log(level: level, "retention: \(report.description)",
                       metadata: ["jobs": "\(report.jobs)", "files": "\(report.files)", "bytes": "\(report.bytesFreed)"])
        } catch {
            logger.error("retention: \(error.description) It is tried again in \(ConfigValues.describe(settings.purgeEvery)).")
        }
    }
}
