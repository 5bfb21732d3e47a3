import Crypto
import Foundation
import HTTPTypes
import PrintModel
import Spooler
import Store
import Synchronization

/// A POS request printed the way a receipt printer's web service prints
/// it: queued as a job of the role, and answered once the job has ended,
/// never later than the request's own timeout. A job not printed by then is
/// cancelled, so that a POS that prints again after a failed answer gets
/// one receipt, not two. Shared by the ePOS-Print and WebPRNT endpoints.
struct AnsweredPrint: Sendable {
    let intake: JobIntake
    let canceller: JobCanceller
    let journal: EventJournal
    let recent = RecentPrintRequests()

    enum Outcome { case printed, queued, notPrinted(String), refused(String) }

    /// Queues the request (once: the same body again within a minute is the
    /// same job) and waits for it to end, or cancels it when `wait` runs out;
    /// with `waitsForPrint` false, answers as soon as it is queued.
    func print(_ body: Data, named name: String, role: Role, jobName: String, source: String, wait: Duration,
               waitsForPrint: Bool = true) async -> Outcome {
        let digest = SHA256.hash(data: Data(role.description.utf8) + body).map { String(format: "%02x", $0) }.joined()
        let subscription = journal.subscribe(after: nil)
        defer { subscription.end() }
        let id: JobID
        if let earlier = recent.job(for: digest) {
            id = earlier
        } else {
            do {
                id = try await intake.queueDocument(body, named: name, role: role, jobName: jobName, source: source).id
            } catch {
                return .refused(error.message)
            }
            recent.remember(digest, job: id)
        }
        guard waitsForPrint else { return .queued }
        // Ended already (a request sent again after its answer was lost)?
        if let job = try? await intake.store.job(id), job.state.isTerminal {
            return job.state == .completed ? .printed : .notPrinted("job \(id) ended \(job.state)")
        }
        let ended: PrintJob? = await withTaskGroup(of: PrintJob?.self) { group in
            group.addTask {
                for await entry in subscription.live {
                    if case .finished(let job) = entry.event, job.id == id { return job }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: wait)  // the request's own timeout, as the maker's printer keeps it
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let ended { return ended.state == .completed ? .printed : .notPrinted("job \(id) ended \(ended.state)") }
        // Not printed in time: cancelled unless it is at the printer already, so the POS's retry is the only print.
        if let job = try? await intake.store.job(id), job.state == .completed { return .printed }
        _ = try? await canceller.cancel(id)
        return .notPrinted("job \(id) had not printed after \(wait); it was cancelled")
    }
}

/// Jobs queued from POS requests in the last minute, by the digest of the
/// role and body: a POS that sends a request again because its answer was
/// lost gets the first job's outcome, and one print.
final class RecentPrintRequests: Sendable {
    static let window = Duration.seconds(60)
    private let entries = Mutex<[String: (JobID, ContinuousClock.Instant)]>([:])

    func job(for digest: String) -> JobID? {
        entries.withLock { entries in
            let now = ContinuousClock.now
            entries = entries.filter { now - $0.value.1 < Self.window }
            return entries[digest]?.0
        }
    }

    func remember(_ digest: String, job: JobID) {
        entries.withLock { $0[digest] = (job, .now) }
    }
}

/// `X-KioskPrint-Problem`: why a POS request was not printed, for the
/// developer reading the answer with curl or a browser's console (pages may
/// read it: CrossOrigin exposes it). POS clients ignore it.
enum ProblemHeader {
    static let name = HTTPField.Name("X-KioskPrint-Problem")!

    /// The reason as a header value: printable ASCII, at most 400 characters.
    static func value(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" }.prefix(400))
    }
}
