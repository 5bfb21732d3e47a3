internal import CGpiod
import Glibc
import PrintModel

/// A chip opened through libgpiod and one line found on it, not yet requested.
///
/// The two pointers belong to whoever holds this value: first the code that
/// requests the line, then the one thread (edge reader) or lock (output) that
/// uses it. Hence `@unchecked Sendable`: it is handed over, never shared.
struct OpenedLine: @unchecked Sendable {
    let chip: OpaquePointer
    let line: OpaquePointer
    let address: LineAddress

    /// Opens the chip and finds the line; the chip is closed again on failure.
    static func open(_ address: LineAddress) throws(GPIOError) -> OpenedLine {
        guard let chip = gpiod_chip_open_lookup(address.chip) else {
            let code = errno
            let reason: GPIOError.Reason = code == ENOENT || code == ENODEV || code == ENOTTY
                ? .noSuchChip(errno: code) : .chipNotOpened(errno: code)
            throw GPIOError(chip: address.chip, line: address.line, reason: reason)
        }
        let lineCount = Int(gpiod_chip_num_lines(chip))
        let found: OpaquePointer?
        switch address.line {
        case .offset(let offset):
            found = (0..<lineCount).contains(offset) ? gpiod_chip_get_line(chip, UInt32(offset)) : nil
            guard found != nil else {
                gpiod_chip_close(chip)
                throw GPIOError(chip: address.chip, line: address.line, reason: .lineOutOfRange(lineCount: lineCount))
            }
        case .name(let name):
            found = gpiod_chip_find_line(chip, name)
            guard found != nil else {
                let names = someNames(of: chip, lineCount: lineCount)
                gpiod_chip_close(chip)
                throw GPIOError(chip: address.chip, line: address.line,
                                reason: .noSuchLineName(someNames: names, lineCount: lineCount))
            }
        }
        return OpenedLine(chip: chip, line: found!, address: address)
    }

    /// Requests the line for edge events on both edges. The consumer
    /// holding it is read first: after a refusal the kernel no longer says.
    func requestEdges(consumer: String, settings: InputSettings) throws(GPIOError) {
        var flags = settings.activeLow ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0
        switch settings.bias {
        case .asIs: break
        case .disable: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE
        case .pullUp: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP
        case .pullDown: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN
        }
        let holder = currentConsumer
        guard gpiod_line_request_both_edges_events_flags(line, consumer, Int32(flags)) == 0 else {
            throw refusal(errno, holder: holder)
        }
    }

    /// Requests the line as an output driven to "off".
    func requestOutput(consumer: String, activeLow: Bool) throws(GPIOError) {
        let flags = activeLow ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0
        let holder = currentConsumer
        guard gpiod_line_request_output_flags(line, consumer, Int32(flags), 0) == 0 else {
            throw refusal(errno, holder: holder)
        }
    }

    /// Releases the line (if requested) and closes the chip. Call once.
    func close() {
        gpiod_line_release(line)
        gpiod_chip_close(chip)
    }

    func error(_ reason: GPIOError.Reason) -> GPIOError {
        GPIOError(chip: address.chip, line: address.line, reason: reason)
    }

    private var currentConsumer: String? {
        gpiod_line_consumer(line).map { String(cString: $0) }
    }

    private func refusal(_ code: Int32, holder: String?) -> GPIOError {
        error(code == EBUSY ? .busy(consumer: holder) : .requestFailed(errno: code))
    }

    /// Up to eight line names, for a message about a name that was not found.
    private static func someNames(of chip: OpaquePointer, lineCount: Int) -> [String] {
        var names: [String] = []
        for offset in 0..<lineCount where names.count < 8 {
            if let line = gpiod_chip_get_line(chip, UInt32(offset)), let name = gpiod_line_name(line), name[0] != 0 {
                names.append(String(cString: name))
            }
        }
        return names
    }
}
