import Glibc

/// Small files under /sys, read with open(2) and read(2) so the kernel
/// resolves the path: `lp0/device/../serial` must follow the `device`
/// symlink before `..`, which a path tidied up as text would not do.
enum SysfsFile {
    /// The file's text without the trailing line end; nil when it cannot be
    /// read or is empty. At most 64 KiB (a 1284 ID is at most 1 KiB).
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            bytes += chunk[..<got]
        }
        while let last = bytes.last, last == 0x0A || last == 0 { bytes.removeLast() }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
