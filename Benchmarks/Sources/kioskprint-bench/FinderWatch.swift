import Foundation
import Setup
import Synchronization

/// A live `PrinterFinder`, running as the picker runs it, watched from
/// outside: every snapshot is kept, and the first moment each port is listed
/// with an IPP answer (capabilities known) is stamped until `reset()`.
///
/// Stamped when the snapshot reaches this consumer, which is when a picker
/// could draw it.
final class FinderWatch: Sendable {
    private struct State {
        var latest = PrinterFinder.Snapshot.empty
        var firstContacted: [Int: ContinuousClock.Instant] = [:]
        /// The first snapshot that called the list complete: Avahi had settled.
        var firstComplete: ContinuousClock.Instant?
        var failure: String?
    }

    /// Just before the finder was created.
    let started = ContinuousClock.now

    private let state = Mutex(State())
    private let follower = Mutex<Task<Void, Never>?>(nil)

    private init() {}

    /// Starts a finder for every kind of printer and follows its snapshots.
    static func start() -> FinderWatch {
        let watch = FinderWatch()
        let stream = PrinterFinder().snapshots()
        let task = Task { await watch.follow(stream) }
        watch.follower.withLock { $0 = task }
        return watch
    }

    private func follow(_ stream: AsyncThrowingStream<PrinterFinder.Snapshot, any Error>) async {
        do {
            for try await snapshot in stream {
                let now = ContinuousClock.now
                state.withLock { state in
                    state.latest = snapshot
                    if snapshot.complete && state.firstComplete == nil { state.firstComplete = now }
                    for listing in snapshot.printers where listing.capabilities != nil {
                        let port = listing.discovered.port
                        if state.firstContacted[port] == nil { state.firstContacted[port] = now }
                    }
                }
            }
        } catch {
            state.withLock { $0.failure = "\(error)" }
        }
    }

    /// The newest snapshot.
    var latest: PrinterFinder.Snapshot { state.withLock { $0.latest } }

    /// From the start to the first complete snapshot, once there has been one.
    var timeToFirstComplete: Duration? { state.withLock { $0.firstComplete.map { $0 - started } } }

    /// Why the finder stopped, if it did.
    var failure: String? { state.withLock { $0.failure } }

    /// When a printer on `port` was first listed with its IPP answer since the last reset.
    func firstContacted(port: Int) -> ContinuousClock.Instant? { state.withLock { $0.firstContacted[port] } }

    /// Whether the newest snapshot lists anything on `port`, answered or not.
    func lists(port: Int) -> Bool { latest.printers.contains { $0.discovered.port == port } }

    /// Whether the newest snapshot lists a service of this name, answered or not.
    func lists(serviceName: String) -> Bool { latest.printers.contains { $0.discovered.serviceName == serviceName } }

    /// Forgets the first-contacted stamps; call only once the printers they were for are gone.
    func reset() { state.withLock { $0.firstContacted.removeAll() } }

    /// Ends the browse: cancelling the consumer drops the stream, which stops the finder.
    func stop() { follower.withLock { $0?.cancel() } }
}
