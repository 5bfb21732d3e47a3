/// Percent-encoding of URI parts (RFC 3986), as CUPS writes a usb:// URI:
/// `Zebra Technologies` becomes `Zebra%20Technologies`.
enum PercentEncoding {
    /// Encodes every byte outside the unreserved set (letters, digits, `-._~`).
    static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
            }
        }
        return encoded
    }

    /// Decodes `%XX` escapes; nil when an escape is cut short, is not
    /// hexadecimal, or the bytes are not UTF-8. `+` stays a plus sign.
    static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard input.count >= 2, let high = hexValue(input.removeFirst()), let low = hexValue(input.removeFirst())
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> String {
        String(Unicode.Scalar(nibble < 10 ? nibble + UInt8(ascii: "0") : nibble - 10 + UInt8(ascii: "A")))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// The `key=value` options after a URI's `?`, in the order written.
struct URIQuery {
    var items: [(key: String, value: String)]

    /// Splits at `&` (and at `+`, which CUPS's serial backend uses between
    /// options) and decodes each side. Fails naming the first item that is
    /// not `key=value` or whose escapes are broken. Keys are lowercased.
    static func parse(_ text: Substring, allowPlus: Bool) -> Result<URIQuery, QueryProblem> {
        var items: [(key: String, value: String)] = []
        let separators: Set<Character> = allowPlus ? ["&", "+"] : ["&"]
        for part in text.split(whereSeparator: { separators.contains($0) }) {
            guard let equals = part.firstIndex(of: "="), equals != part.startIndex else {
                return .failure(QueryProblem(item: String(part)))
            }
            guard let key = PercentEncoding.decode(String(part[..<equals])),
                  let value = PercentEncoding.decode(String(part[part.index(after: equals)...]))
            else { return .failure(QueryProblem(item: String(part))) }
            items.append((key.lowercased(), value))
        }
        return .success(URIQuery(items: items))
    }

    /// The keys given more than once, or not in `known`, in the order written.
    func unexpectedKeys(known: Set<String>) -> (unknown: [String], repeated: [String]) {
        var seen: Set<String> = []
        var unknown: [String] = [], repeated: [String] = []
        for (key, _) in items {
            if !known.contains(key) { unknown.append(key) }
            if !seen.insert(key).inserted { repeated.append(key) }
        }
        return (unknown, repeated)
    }

    subscript(key: String) -> String? { items.first { $0.key == key }?.value }
}

/// An option that is not `key=value`.
struct QueryProblem: Error {
    let item: String
}
