/// An open connection to a raw printer: bytes out, bytes back, each call
/// bounded by a deadline.
///
/// The calls block the calling thread (at most until the deadline), so call
/// them from a thread of your own, never from Swift's cooperative pool, or
/// through `AsyncPrinterLink`, which does that. One call at a time; `close()`
/// may come from any thread and ends a call in progress with `.closed`.
public protocol PrinterLink: Sendable {
    /// The printer's address, as every error names it.
    var uri: RawPrinterURI { get }

    /// Sends every byte of `bytes`, or throws: `.writeTimedOut` with how many
    /// went through when the printer stops taking data before `deadline`,
    /// `.connectionLost` when it goes away. Never blocks past the deadline.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(LinkError)

    /// Returns what the printer has sent, up to `count` bytes, as soon as
    /// anything is there; an empty array when nothing came by `deadline`.
    /// Throws `.connectionLost` when the printer has gone away.
    func read(atMost count: Int, deadline: ContinuousClock.Instant) throws(LinkError) -> [UInt8]

    /// Closes the connection. Safe to call twice and from another thread:
    /// a call in progress ends with `.closed`.
    func close()
}
