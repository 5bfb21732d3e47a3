import Glibc
public import PrintModel

/// Why a GPIO line could not be used. The message says what happened and
/// what to do, naming the chip and the line; it does not know where in a
/// configuration file they were set, so a caller prefixes that
/// (`button[1]: ` + the message) or uses `description(chipSetting:lineSetting:)`.
public struct GPIOError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, with what the message needs.
    public enum Reason: Sendable, Equatable {
        /// The chip was not found (errno ENOENT from gpiod_chip_open_lookup).
        case noSuchChip(errno: Int32)
        /// The chip exists but could not be opened (EACCES and the like).
        case chipNotOpened(errno: Int32)
        /// The offset is past the chip's last line.
        case lineOutOfRange(lineCount: Int)
        /// No line has this name; a few names the chip does have.
        case noSuchLineName(someNames: [String], lineCount: Int)
        /// Another consumer holds the line (EBUSY); its name when the kernel tells it.
        case busy(consumer: String?)
        /// The kernel refused the request for another reason.
        case requestFailed(errno: Int32)
        /// Reading edges or setting the value failed.
        case ioFailed(errno: Int32)
        /// The line was already released.
        case closed
    }

    public let chip: String
    public let line: LineSelector?
    public let reason: Reason

    public init(chip: String, line: LineSelector?, reason: Reason) {
        self.chip = chip
        self.line = line
        self.reason = reason
    }

    public var description: String { description(chipSetting: nil, lineSetting: nil) }

    /// The message, with the advice naming the settings to change
    /// (`"button[1].chip"`) instead of "the chip" and "the line".
    public func description(chipSetting: String?, lineSetting: String?) -> String {
        let chipKey = chipSetting ?? "the chip"
        let lineKey = lineSetting ?? "the line"
        let lineName = line.map { "line \($0)" } ?? "the line"
        switch reason {
        case .noSuchChip(let code):
            return "GPIO chip \"\(chip)\" does not exist (\(Self.text(code))). "
                + "Run gpiodetect to list this machine's chips and set \(chipKey) to one of them."
        case .chipNotOpened(let code) where code == EACCES || code == EPERM:
            return "GPIO chip \"\(chip)\" could not be opened (\(Self.text(code))). "
                + "Run as root or as a user allowed to open /dev/gpiochip* (often the gpio group)."
        case .chipNotOpened(let code):
            return "GPIO chip \"\(chip)\" could not be opened (\(Self.text(code))). "
                + "Check that \(chipKey) names a GPIO chip: gpiodetect lists them."
        case .lineOutOfRange(let count):
            let range = count > 0 ? "lines 0 to \(count - 1)" : "no lines"
            return "\(lineName) does not exist on \(chip): it has \(range). "
                + "Set \(lineKey) to one of them (gpioinfo \(chip) lists them)."
        case .noSuchLineName(let names, let count) where names.isEmpty:
            return "no line of \(chip) is named \(line.map { "\($0)" } ?? "so"): its lines have no names. "
                + "Set \(lineKey) to an offset from 0 to \(max(count - 1, 0)) instead (gpioinfo \(chip) lists them)."
        case .noSuchLineName(let names, _):
            let listed = names.map { "\"\($0)\"" }.joined(separator: ", ")
            return "no line of \(chip) is named \(line.map { "\($0)" } ?? "so"); its names include \(listed). "
                + "Set \(lineKey) to one of its names or to an offset (gpioinfo \(chip) lists them all)."
        case .busy(let consumer?):
            return "\(lineName) of \(chip) is already in use by \"\(consumer)\"; stop that program or pick another line "
                + "(gpioinfo \(chip) shows who holds each line)."
        case .busy(nil):
            return "\(lineName) of \(chip) is already in use (by the kernel or another program); "
                + "pick another line (gpioinfo \(chip) shows which lines are used)."
        case .requestFailed(let code) where code == EINVAL || code == EOPNOTSUPP:
            return "\(lineName) of \(chip) could not be requested (\(Self.text(code))). "
                + "The kernel or the chip's driver may not support the bias or active-low setting: try bias \"as-is\"."
        case .requestFailed(let code):
            return "\(lineName) of \(chip) could not be requested (\(Self.text(code))). "
                + "Check it with gpioinfo \(chip)."
        case .ioFailed(let code):
            return "\(lineName) of \(chip) could not be read or set (\(Self.text(code))). "
                + "The chip may have gone away; check it with gpioinfo \(chip)."
        case .closed:
            return "\(lineName) of \(chip) was already released; request it again."
        }
    }

    /// The system's wording for an errno value ("No such file or directory").
    static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
