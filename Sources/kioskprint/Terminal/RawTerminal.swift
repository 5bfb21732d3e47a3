import Foundation

/// The controlling terminal in key-at-a-time mode, for the interactive picker.
///
/// Echo, line editing and signal keys are off while it is open, so the live
/// list can be redrawn without tearing what the person types; Ctrl-C arrives
/// as a key and cancels cleanly. `restore()` (also run on deinit) puts the
/// terminal back exactly as it was.
final class RawTerminal: @unchecked Sendable {  // termios saved once in init; `restored` guarded by `lock`
    private var original = termios()
    private var restored = false
    private let lock = NSLock()

    /// Nil when standard input or output is not a terminal.
    init?() {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1,
              tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
    }

    deinit { restore() }

    func restore() {
        lock.withLock {
            guard !restored else { return }
            restored = true
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        }
    }

    /// Keys as they are pressed, read on a thread of their own (a blocking
    /// read must not hold one of Swift's few cooperative threads).
    func keys() -> AsyncStream<Key> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while read(STDIN_FILENO, &byte, 1) == 1 {
                    continuation.yield(Key(byte: byte))
                }
                continuation.yield(.cancel)  // end of input: nobody is there to choose
                continuation.finish()
            }
        }
    }

    /// The terminal's width in columns (80 when it does not say).
    var columns: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Writes text as it is; `\n` still starts a new line (output processing is left on).
    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// A key the picker understands.
enum Key: Equatable {
    case digit(Int)
    case enter
    case backspace
    /// Ctrl-C, Ctrl-D, Escape or q.
    case cancel
    case yes
    case no
    case other

    init(byte: UInt8) {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self = .digit(Int(byte - UInt8(ascii: "0")))
        case 10, 13: self = .enter
        case 8, 127: self = .backspace
        case 3, 4, 27, UInt8(ascii: "q"), UInt8(ascii: "Q"): self = .cancel
        case UInt8(ascii: "y"), UInt8(ascii: "Y"): self = .yes
        case UInt8(ascii: "n"), UInt8(ascii: "N"): self = .no
        default: self = .other
        }
    }
}
