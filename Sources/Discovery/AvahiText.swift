import CAvahi

/// Conversions from Avahi's C values to Swift strings, kept in one place so
/// no C type travels further than the session.
enum AvahiText {
    /// `127.0.0.1`, `fe80::1`: the address as text.
    static func address(_ address: UnsafePointer<AvahiAddress>) -> String {
        var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        guard avahi_address_snprint(&buffer, buffer.count, address) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The TXT strings in list order. Each item is a length-counted byte
    /// string, not NUL-terminated text, so it is read by its size; bytes that
    /// are not UTF-8 are repaired rather than dropped.
    static func strings(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [String] {
        var result: [String] = []
        var node = list
        while let current = node {
            let size = avahi_string_list_get_size(current)
            if let text = avahi_string_list_get_text(current) {
                result.append(String(decoding: UnsafeBufferPointer(start: text, count: size), as: UTF8.self))
            }
            node = avahi_string_list_get_next(current)
        }
        return result
    }
}
