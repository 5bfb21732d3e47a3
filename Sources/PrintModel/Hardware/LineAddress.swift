/// How a GPIO line is named on its chip: by offset (`17`) or by the name the
/// board's device tree gives it (`"GPIO17"`). `gpioinfo` lists both.
///
/// A pure value, here rather than in `GPIO`, so the configuration can name
/// lines without linking libgpiod.
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
