import Foundation
public import PrintModel
public import Spooler
public import Store
public import Templates
import Triggers

/// One job followed to its end outside the agent (`print --wait`,
/// `printers test`): watched while a running agent prints it, or printed by
/// this process when no agent holds the lock.
///
/// It owns the hand-over of the drawing: when this process prints, the
/// intake and the spooler share one `DocumentPreparer` with a
/// `DrawnDocuments` shelf, so a template is drawn once, as it is taken in,
/// and sent as drawn.
public struct JobWatch: Sendable {
    public let store: KioskStore
    /// True when no agent runs and this process sends the job itself.
    public let printsHere: Bool
    /// Takes the job in; its drawing reaches `spooler` when this process prints.
    public let intake: JobIntake
    /// The spooler this process prints with; nil when an agent prints.
    public let spooler: Spooler?
    private let preparer: DocumentPreparer
    private let databasePath: String
    private let report: @Sendable (String) -> Void

    /// - Parameters:
    ///   - printing: false when the caller only queues (`print` without `--wait`).
    ///   - report: each change worth telling the person waiting, as a line.
    public init(store: KioskStore, catalog: TemplateCatalog, databasePath: String, printing: Bool = true,
                report: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.databasePath = databasePath
        self.report = report
        printsHere = printing && !AgentLock(databasePath: databasePath).isHeld
        let preparer = DocumentPreparer(catalog: catalog, drawnAhead: printsHere ? DrawnDocuments() : nil)
        self.preparer = preparer
        intake = JobIntake(store: store, catalog: catalog, preparer: preparer)
        spooler = printsHere ? Self.spooler(store: store, preparer: preparer, report: report) : nil
    }

    /// The job as it ended: followed while a running agent prints it, or
    /// printed from this process when no agent holds the lock.
    public func delivered(_ id: JobID) async throws -> PrintJob {
        if AgentLock(databasePath: databasePath).isHeld {
            report("Waiting for the agent to print it...")
            return try await untilEnded(id)
        }
        report("No agent is running; printing it from here...")
        return try await (spooler ?? Self.spooler(store: store, preparer: preparer, report: report)).deliver(id)
    }

    /// The spooler a command prints with when no agent runs: its events are
    /// reported as lines, and it looks at its one job at the printer every
    /// `firstFollowLook` at first (a few more requests, for a process that
    /// only waits for this job's end).
    static func spooler(store: KioskStore, preparer: DocumentPreparer, report: @escaping @Sendable (String) -> Void) -> Spooler {
        var configuration = SpoolerConfiguration()
        configuration.firstFollowWait = firstFollowLook
        return Spooler(store: store, preparer: preparer, configuration: configuration) { report($0.description) }
    }

    /// 4 ms: an instant printer's receipt ends 5 to 15 ms after Print-Job.
    static let firstFollowLook = Duration.milliseconds(4)

    /// Follows a job another process prints, reporting each change of state.
    /// It reads the job again each time the database's progress file is
    /// touched (the agent touches it after every change to a job it holds),
    /// and every `safetyLook` besides. Asking every 50 ms instead, `print
    /// --wait` beside the lab's agent took 83 ms, against 50 with the file.
    func untilEnded(_ id: JobID) async throws -> PrintJob {
        let progress = try? DatabaseChanges(touchesOf: store.progressFilePath)
        let (looks, look) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let feeders = Task {
            await withTaskGroup(of: Void.self) { group in
                if let progress { group.addTask { for await _ in progress.writes { look.yield() } } }
                group.addTask {
                    // Without inotify (none left), as often as before.
                    let spacing = progress == nil ? Duration.milliseconds(50) : Self.safetyLook
                    while (try? await Task.sleep(for: spacing)) != nil { look.yield() }
                }
            }
        }
        defer {
            feeders.cancel()
            progress?.stop()
            look.finish()
        }
        var last: (JobState, String?)?
        var pending = looks.makeAsyncIterator()
        repeat {
            let job = try await store.job(id)
            if last?.0 != job.state || last?.1 != job.lastError {
                report("job \(job.id): \(job.state)\(job.state == .waiting ? " (\(job.lastError ?? ""))" : "")")
                last = (job.state, job.lastError)
            }
            if job.state.isTerminal { return job }
        } while await pending.next() != nil
        throw CancellationError()
    }

    /// How often a follower reads the job with no word from the progress
    /// file: a change whose touch it missed (the file removed meanwhile) is
    /// seen within this.
    static let safetyLook = Duration.seconds(1)
}
