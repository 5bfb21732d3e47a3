public import Foundation
import Crypto
public import PrintModel

/// What every role printer of one agent shares: the box's name, where its
/// status page is, whether clients must sign in, and the seed of the
/// printers' UUIDs.
public struct RolePrinterIdentity: Sendable {
    /// The box's name (`box` in the configuration), in `printer-info`.
    public var box: String
    /// The status page, for `printer-more-info`; nil when the API does not listen on TCP.
    public var moreInfo: String?
    public var startedAt: Date
    /// HTTP Basic with a token as the password is asked of every client.
    public var requiresToken: Bool
    /// The most a request may carry, its document included.
    public var maxDocumentBytes: Int
    /// What makes this box's UUIDs its own: `/etc/machine-id` where there is one.
    public var seed: String

    public init(box: String, moreInfo: String?, startedAt: Date = Date(), requiresToken: Bool, maxDocumentBytes: Int,
                seed: String = RolePrinterIdentity.machineSeed()) {
        self.box = box; self.moreInfo = moreInfo; self.startedAt = startedAt; self.requiresToken = requiresToken
        self.maxDocumentBytes = maxDocumentBytes; self.seed = seed
    }

    /// `printer-uuid`: the same for a role on this box across restarts and
    /// upgrades (iOS and CUPS recognise a printer by it), different on
    /// another box. A name-based UUID (RFC 9562 §5.8) of the seed and the role.
    public func uuid(for role: Role) -> String {
        var bytes = Array(SHA256.hash(data: Data("kioskprint role printer\u{0}\(seed)\u{0}\(role)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom, name-based
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return "urn:uuid:" + parts.joined(separator: "-")
    }

    /// This machine's id (systemd's `/etc/machine-id`), or its host name.
    public static func machineSeed() -> String {
        if let id = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
           !id.isEmpty { return id }
        return ProcessInfo.processInfo.hostName
    }
}
