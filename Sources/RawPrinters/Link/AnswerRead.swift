/// What one bounded read of a printer's answer came to: the bytes kept and
/// why reading stopped. A printer that keeps sending gets no more than the
/// byte limit kept and no more than the deadline spent on it.
public struct AnswerRead: Sendable, Hashable {
    /// Why the read stopped.
    public enum End: Sendable, Hashable {
        /// `isComplete` found the answer in the bytes.
        case complete
        /// The byte limit was reached without a complete answer.
        case limitReached
        /// The deadline passed without a complete answer.
        case deadlinePassed
    }

    /// Everything read, at most the limit.
    public var bytes: [UInt8]
    public var end: End

    public init(bytes: [UInt8], end: End) {
        self.bytes = bytes
        self.end = end
    }
}

extension PrinterLink {
    /// Reads until `isComplete` finds an answer in what came, `limit` bytes
    /// came, or `deadline` passed, whichever is first. Bytes arriving never
    /// move the deadline (a printer that keeps talking cannot hold the
    /// caller), and nothing past `limit` is read or kept.
    ///
    /// With `stallWindow`, bytes written earlier that are still leaving the
    /// link (a long job ahead of a status request) move the deadline to a
    /// `stallWindow` after each time fewer are left: the printer answers only
    /// once it has taken them, and it is taking them.
    public func readAnswer(limit: Int, deadline: ContinuousClock.Instant, stallWindow: Duration? = nil,
                           isComplete: ([UInt8]) -> Bool) throws(LinkError) -> AnswerRead {
        var kept: [UInt8] = []
        var deadline = deadline
        var unsent = stallWindow == nil ? nil : unsentBytes()
        while true {
            // While bytes are still leaving, look at them every so often; otherwise wait for the deadline in one go.
            let waitUntil = (unsent ?? 0) > 0 ? min(deadline, .now + progressLook) : deadline
            kept += try read(atMost: limit - kept.count, deadline: waitUntil)
            if isComplete(kept) { return AnswerRead(bytes: kept, end: .complete) }
            if kept.count >= limit { return AnswerRead(bytes: kept, end: .limitReached) }
            if let before = unsent, before > 0, let window = stallWindow {
                let now = unsentBytes()
                if let now, now < before { deadline = max(deadline, .now + window) }
                unsent = now
            }
            if ContinuousClock.now >= deadline { return AnswerRead(bytes: kept, end: .deadlinePassed) }
        }
    }
}

/// How often a wait for an answer looks whether the bytes ahead of it are
/// still leaving: often enough that a stall window of a second sees progress
/// many times, rarely enough to cost nothing.
private let progressLook = Duration.milliseconds(50)
