public import PrintModel

/// The edges of one requested input line.
///
/// The line stays requested (no other program can take it) until `close()`.
public protocol EdgeSource: Sendable {
    /// Every edge in the order the kernel reported it. Finishes after
    /// `close()` once the line has been released, or when the line can no
    /// longer be read. There is one stream per source: iterate it once.
    var edges: AsyncStream<LineEdge> { get }
    /// Stops watching and releases the line: when it returns, the line may
    /// be requested again. It waits only for the reading thread to notice,
    /// which is immediate. Safe to call twice.
    func close()
}

/// One requested output line, such as a status light.
public protocol OutputLine: Sendable {
    /// Drives the line: `true` lights it (high, or low for an active-low light).
    func set(_ lit: Bool) throws(GPIOError)
    /// Releases the line. Safe to call twice; `set` then fails.
    func close()
}

/// Access to GPIO lines: `Libgpiod` in production, test doubles in tests.
public protocol GPIOLines: Sendable {
    /// Requests `address` as an input with edge events on both edges.
    func watch(_ address: LineAddress, consumer: String, settings: InputSettings) throws(GPIOError) -> any EdgeSource
    /// Requests `address` as an output, initially off (unlit).
    func output(_ address: LineAddress, consumer: String, activeLow: Bool) throws(GPIOError) -> any OutputLine
}
