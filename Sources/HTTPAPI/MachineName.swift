import Foundation

/// The names this machine goes by: its host name, and `HOST.local`, the name
/// avahi-daemon announces it by and DNS-SD clients then address it with.
public enum MachineName {
    /// The host name, lower case; nil when it is unset or "localhost".
    public static let host: String? = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        return name.isEmpty || name == "localhost" ? nil : name
    }()

    /// `HOST.local`, or "localhost" on a machine without a host name.
    public static var mdns: String {
        guard let host else { return "localhost" }
        return host.hasSuffix(".local") ? host : host + ".local"
    }

    /// The host name and its `.local` form (empty without a host name).
    public static var own: Set<String> {
        guard let host else { return [] }
        return [host, mdns]
    }
}
