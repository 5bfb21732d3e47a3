public import PrintModel

/// How an input line is requested.
public struct InputSettings: Sendable, Hashable {
    /// True when pressing pulls the line low (a button to ground, the usual
    /// wiring); the kernel then reports a press as a rising edge.
    public var activeLow: Bool
    public var bias: Bias

    public init(activeLow: Bool = true, bias: Bias = .pullUp) {
        self.activeLow = activeLow
        self.bias = bias
    }
}
