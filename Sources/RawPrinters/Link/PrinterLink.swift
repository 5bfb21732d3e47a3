/// An open connection to a raw printer: bytes out, bytes back, each call
/// bounded in time.
///
/// The calls block the calling thread (at most until their deadline or
/// stall window), so call them from a thread of your own, never from Swift's
/// cooperative pool, or through `AsyncPrinterLink`, which does that. One
/// call at a time; `close()` may come from any thread and ends a call in
/// progress with `.closed`.
public protocol PrinterLink: Sendable {
    /// The printer's address, as every error names it.
    var uri: RawPrinterURI { get }

    /// Sends every byte of `bytes`, or throws: `.writeTimedOut` with how many
    /// went through when the printer takes no byte at all for `stallWindow`,
    /// `.connectionLost` when it goes away. A printer that keeps taking data,
    /// however slowly its line carries it, is never cut off: how long a job
    /// may take follows its progress, not its size.
    func write(_ bytes: [UInt8], stallWindow: Duration) throws(LinkError)

    /// Returns what the printer has sent, up to `count` bytes, as soon as
    /// anything is there; an empty array when nothing came by `deadline`.
    /// Throws `.connectionLost` when the printer has gone away.
    func read(atMost count: Int, deadline: ContinuousClock.Instant) throws(LinkError) -> [UInt8]

    /// Bytes written that have not left the agent's side of the link yet
    /// (a serial port's output queue, a socket's unacknowledged data): how a
    /// wait for an answer sees that the printer is still taking the job. Nil
    /// when the link cannot tell (usblp).
    func unsentBytes() -> Int?

    /// Closes the connection. Safe to call twice and from another thread:
    /// a call in progress ends with `.closed`.
    func close()
}

extension PrinterLink {
    /// A link that cannot tell (a test double) says so.
    public func unsentBytes() -> Int? { nil }
}
