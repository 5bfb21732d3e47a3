/// A directory entry's name as the kernel holds it: up to 255 bytes, which
/// need not be UTF-8. The folder code handles every name as one of these, so
/// a name no `String` can hold is still seen, and moved aside, rather than
/// lost in a lossy decoding.
struct EntryName: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    let bytes: [UInt8]

    init(bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }
    init(_ text: String) { bytes = Array(text.utf8) }
    init(stringLiteral value: String) { self.init(value) }

    /// The name as text; nil when its bytes are not valid UTF-8.
    var text: String? {
        let decoded = String(decoding: bytes, as: UTF8.self)
        return decoded.utf8.elementsEqual(bytes) ? decoded : nil
    }

    /// The name for people: printable ASCII as it is, every other byte
    /// (and the backslash) as `\xNN`.
    var escaped: String {
        bytes.map { byte in
            (0x20..<0x7f).contains(byte) && byte != UInt8(ascii: "\\")
                ? String(UnicodeScalar(byte)) : "\\x" + hex(byte)
        }.joined()
    }

    /// The bytes in hexadecimal, separated by spaces.
    var hexBytes: String { bytes.map(hex).joined(separator: " ") }

    var description: String { text ?? escaped }

    static func < (lhs: EntryName, rhs: EntryName) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    /// Calls `body` with the name as a NUL-terminated C string.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
}
