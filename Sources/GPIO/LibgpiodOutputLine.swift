internal import CGpiod
import Glibc
import PrintModel
import Synchronization

/// An output line requested through libgpiod. Setting a value is one quick
/// ioctl, so it runs on the caller's thread, under a lock that also guards
/// the release.
final class LibgpiodOutputLine: OutputLine {
    private let opened: Mutex<OpenedLine?>
    private let address: LineAddress

    /// Takes ownership of `opened`, which must be requested as an output.
    init(_ opened: OpenedLine) {
        self.opened = Mutex(opened)
        address = opened.address
    }

    func set(_ lit: Bool) throws(GPIOError) {
        let failure: GPIOError.Reason? = opened.withLock { opened in
            guard let opened else { return .closed }
            return gpiod_line_set_value(opened.line, lit ? 1 : 0) == 0 ? nil : .ioFailed(errno: errno)
        }
        if let failure { throw GPIOError(chip: address.chip, line: address.line, reason: failure) }
    }

    func close() {
        opened.withLock { opened in
            opened?.close()
            opened = nil
        }
    }

    deinit { close() }
}
