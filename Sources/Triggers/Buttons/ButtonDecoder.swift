public import GPIO

/// One completed press of a button: pressed, then released.
public struct ButtonPress: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case short
        /// Held for `longPressAfter` or longer.
        case long
    }

    public var kind: Kind
    /// From the press's first edge to its release, by the kernel's timestamps.
    public var held: Duration

    public init(kind: Kind, held: Duration) {
        self.kind = kind
        self.held = held
    }
}

/// Turns a button's edges into presses: debounced, and classified as short
/// or long by how long the button was held.
///
/// A pure value: it reads only the edges' own timestamps, never a clock, so
/// the same edges always give the same presses. A long press is therefore
/// known, and reported, only when the button is released; holding a button
/// does nothing until it is let go.
///
/// Edges are logical (`isActive` is "pressed"): an active-low button has
/// already been inverted by the kernel, on the binding's request.
public struct ButtonDecoder: Sendable, Hashable {
    /// An edge sooner than this after the last accepted edge is contact
    /// bounce and ignored.
    public var debounce: Duration
    /// A press held at least this long is a long press.
    public var longPressAfter: Duration

    /// When the last edge that changed the state arrived.
    private var lastAccepted: Duration?
    /// When the current press began; nil while released.
    private var pressedAt: Duration?

    public init(debounce: Duration = .milliseconds(30), longPressAfter: Duration = .seconds(2)) {
        self.debounce = debounce
        self.longPressAfter = longPressAfter
    }

    /// True between an accepted press and its release.
    public var isPressed: Bool { pressedAt != nil }

    /// Takes the next edge; returns the press it completes, if any.
    ///
    /// - An edge within `debounce` of the last accepted one is bounce.
    /// - An edge that does not change the state (a release while released)
    ///   is ignored: it means an edge was lost as bounce.
    /// - A press while already pressed starts the press again at the new
    ///   edge: the release was lost, and guessing when would invent a long
    ///   press nobody made.
    /// - A timestamp earlier than the last accepted one (older kernels stamp
    ///   edges with the wall clock, which can be stepped back) is taken as
    ///   is, not as bounce, so a clock step never mutes the button.
    public mutating func feed(_ edge: LineEdge) -> ButtonPress? {
        if let last = lastAccepted, edge.timestamp >= last, edge.timestamp - last < debounce {
            return nil
        }
        if edge.isActive {
            pressedAt = edge.timestamp
            lastAccepted = edge.timestamp
            return nil
        }
        guard let start = pressedAt else { return nil }
        pressedAt = nil
        lastAccepted = edge.timestamp
        let held = max(edge.timestamp - start, .zero)
        return ButtonPress(kind: held >= longPressAfter ? .long : .short, held: held)
    }
}
