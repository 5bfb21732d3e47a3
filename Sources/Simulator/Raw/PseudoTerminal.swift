import Glibc

/// A new pseudo-terminal pair: the stand-in for a serial or USB-serial line.
///
/// glibc's posix_openpt, grantpt, unlockpt and ptsname_r are what make one,
/// but Swift's Glibc module does not show them (stdlib.h declares them only
/// for XSI, which the module is not built with), and the ioctls behind them
/// are function-like macros that do not import either. So they are looked up
/// by name in the C library this process already has loaded.
enum PseudoTerminal {
    struct Pair {
        /// The printer's side, non-blocking.
        let master: Int32
        /// The line's side, opened once and kept open.
        let slave: Int32
        /// `/dev/pts/N`.
        let path: String
    }

    private typealias DescriptorCall = @convention(c) (Int32) -> Int32
    private typealias NameCall = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    /// Opens a pair. The slave keeps the kernel's default line settings
    /// (canonical input, echo, newline translation), as a real serial port
    /// has them before a program configures it: the agent must set raw mode
    /// (cfmakeraw) as it would for real hardware.
    static func open() throws -> Pair {
        guard let library = dlopen(nil, RTLD_NOW),
              let openSymbol = dlsym(library, "posix_openpt"), let grantSymbol = dlsym(library, "grantpt"),
              let unlockSymbol = dlsym(library, "unlockpt"), let nameSymbol = dlsym(library, "ptsname_r")
        else { throw RawSimulatorError.system("dlsym(posix_openpt, grantpt, unlockpt, ptsname_r)", ENOSYS) }
        let openpt = unsafeBitCast(openSymbol, to: DescriptorCall.self)
        let grantpt = unsafeBitCast(grantSymbol, to: DescriptorCall.self)
        let unlockpt = unsafeBitCast(unlockSymbol, to: DescriptorCall.self)
        let ptsname = unsafeBitCast(nameSymbol, to: NameCall.self)

        let master = openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw RawSimulatorError.system("posix_openpt", errno) }
        var name = [CChar](repeating: 0, count: 128)
        guard grantpt(master) == 0, unlockpt(master) == 0, ptsname(master, &name, name.count) == 0 else {
            let code = errno
            close(master)
            throw RawSimulatorError.system("grantpt/unlockpt/ptsname_r", code)
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let code = errno
            close(master)
            throw RawSimulatorError.system("open \(path)", code)
        }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        return Pair(master: master, slave: slave, path: path)
    }
}
