/// How a line is named on its chip: by offset (`17`) or by the name the
/// board's device tree gives it (`"GPIO17"`). `gpioinfo` lists both.
public enum LineSelector: Sendable, Hashable, CustomStringConvertible {
    case offset(Int)
    case name(String)

    /// Reads a setting as written: all digits is an offset, anything else a name.
    public init(_ text: String) {
        if !text.isEmpty, text.allSatisfy(\.isASCII), let offset = Int(text), offset >= 0 {
            self = .offset(offset)
        } else {
            self = .name(text)
        }
    }

    /// `17` or `"GPIO17"`, as messages name it.
    public var description: String {
        switch self {
        case .offset(let offset): "\(offset)"
        case .name(let name): "\"\(name)\""
        }
    }
}

/// One GPIO line: the chip that has it and the line on that chip.
public struct LineAddress: Sendable, Hashable, CustomStringConvertible {
    /// `"gpiochip0"`, the chip's label (`"pinctrl-bcm2711"`), `"/dev/gpiochip0"`
    /// or its number (`"0"`): whatever `gpiod_chip_open_lookup` accepts.
    public var chip: String
    public var line: LineSelector

    public init(chip: String, line: LineSelector) {
        self.chip = chip
        self.line = line
    }

    /// `line 17 of gpiochip0`.
    public var description: String { "line \(line) of \(chip)" }
}

/// The line's internal pull resistor, as the kernel names the choices.
public enum Bias: String, Sendable, CaseIterable {
    /// Leave whatever the firmware or device tree set.
    case asIs = "as-is"
    case disable
    case pullUp = "pull-up"
    case pullDown = "pull-down"
}

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
