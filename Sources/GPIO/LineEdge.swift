/// One change of an input line, as the kernel reported it.
public struct LineEdge: Sendable, Hashable {
    /// The line's logical state after the edge: true when pressed, with the
    /// active-low setting already applied by the kernel.
    public var isActive: Bool
    /// When the kernel saw the edge (its event timestamp, on a clock of the
    /// kernel's choosing). Only differences between edges mean anything.
    public var timestamp: Duration

    public init(isActive: Bool, timestamp: Duration) {
        self.isActive = isActive
        self.timestamp = timestamp
    }
}
