/// How a serial line is set up: the speed and framing the printer's own
/// settings (its self-test page) show, and the flow control that keeps its
/// buffer from overflowing.
public struct SerialSettings: Sendable, Hashable {
    /// Which side may pause the other.
    public enum FlowControl: String, Sendable, Hashable, CaseIterable {
        /// No flow control: only safe when the printer is faster than the line.
        case none
        /// Hardware handshake on the RTS/CTS wires (termios CRTSCTS).
        case rtsCTS = "rtscts"
        /// Software handshake: the printer sends XOFF (0x13) and XON (0x11).
        case xonXoff = "xonxoff"
    }

    /// The parity bit sent after each character.
    public enum Parity: String, Sendable, Hashable, CaseIterable {
        case none, even, odd
    }

    /// The termios speeds a printer's serial port uses, 1200 to 230400 baud.
    public static let supportedBauds = [1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600, 115_200, 230_400]

    /// Bits per second: one of `supportedBauds`.
    public var baud: Int
    /// Which side may pause the other; none unless given.
    public var flowControl: FlowControl
    /// Data bits per character, 5 to 8.
    public var dataBits: Int
    /// The parity bit; none unless given.
    public var parity: Parity
    /// 1 or 2.
    public var stopBits: Int

    /// 8 data bits, no parity, 1 stop bit and no flow control unless told:
    /// the factory setting of most receipt printers' serial ports.
    public init(baud: Int, flowControl: FlowControl = .none, dataBits: Int = 8, parity: Parity = .none, stopBits: Int = 1) {
        self.baud = baud
        self.flowControl = flowControl
        self.dataBits = dataBits
        self.parity = parity
        self.stopBits = stopBits
    }

    /// The most bytes a second the line carries: each byte goes as a start
    /// bit, its data bits, the parity bit if any and its stop bits, so at
    /// 8N1 (10 bits a byte) 9600 baud carries 960 bytes a second.
    public var bytesPerSecond: Double {
        Double(baud) / Double(1 + dataBits + (parity == .none ? 0 : 1) + stopBits)
    }

    /// `115200 baud, 8N1, RTS/CTS`: the settings as a printer's manual writes them.
    public var summary: String {
        let flow = switch flowControl {
        case .none: "no flow control"
        case .rtsCTS: "RTS/CTS"
        case .xonXoff: "XON/XOFF"
        }
        return "\(baud) baud, \(dataBits)\(parity.rawValue.prefix(1).uppercased())\(stopBits), \(flow)"
    }
}
