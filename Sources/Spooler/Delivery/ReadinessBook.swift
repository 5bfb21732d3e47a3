import Synchronization

/// The last time each printer answered "ready", so that a burst of jobs to
/// one printer asks its state once, not before every receipt: within
/// `SpoolerConfiguration.readinessReuse` of a ready answer, with nothing
/// failed since, the spooler sends without asking again. Only a real answer
/// opens the window (a completed job does not extend it), so a busy printer
/// is still asked every few seconds and its warnings (paper low) are heard.
/// Any trouble with the printer closes the window at once.
final class ReadinessBook: Sendable {
    private struct Answer {
        var readiness: Readiness
        var at: ContinuousClock.Instant
    }

    private let answers = Mutex<[String: Answer]>([:])
    private let window: Duration

    init(window: Duration) { self.window = window }

    /// The printer's last ready answer, when it came within the window.
    func recent(_ uri: String, now: ContinuousClock.Instant = .now) -> Readiness? {
        guard window > .zero else { return nil }
        return answers.withLock { known in
            guard let answer = known[uri], now - answer.at < window else { return nil }
            return answer.readiness
        }
    }

    /// Records an answer: a ready one opens the window, trouble closes it.
    func record(_ readiness: Readiness, for uri: String, at now: ContinuousClock.Instant = .now) {
        answers.withLock { known in
            if readiness.problem == nil { known[uri] = Answer(readiness: readiness, at: now) } else { known[uri] = nil }
        }
    }

    /// Something failed with the printer: ask it again before the next job.
    func forget(_ uri: String) {
        _ = answers.withLock { $0.removeValue(forKey: uri) }
    }
}
