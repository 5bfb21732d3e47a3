public import Foundation

/// Where the running agent serves its role printers (IPP, and the
/// ePOS-Print and WebPRNT endpoints on the same listener) and with which
/// certificate, written beside the database as the listener opens, so that
/// `kioskprint status` can show an administrator the addresses to give the
/// tills and the fingerprint to compare with the one an iPad, a Mac or a
/// till's browser shows before it trusts the printer.
public struct RolePrinterRecord: Codable, Sendable, Equatable {
    /// `ipp://HOST:PORT/ipp/print/` or `ipps://…`, the port the one bound.
    public var base: String
    public var roles: [String]
    /// SHA-256 of the certificate, 64 hex digits; nil for `ipp://`.
    public var fingerprint: String?
    public var notValidAfter: Date?
    public var madeByAgent: Bool
    public var certificatePath: String?
    /// The POS endpoints on the listener, each as its log line says it:
    /// `ePOS-Print (devid local_printer) at https://HOST:PORT/cgi-bin/epos/service.cgi`.
    /// Optional, so that a record an older agent wrote still reads.
    public var endpoints: [String]?

    public init(base: String, roles: [String], certificate: AgentCertificate?, endpoints: [String] = []) {
        self.base = base
        self.roles = roles
        self.endpoints = endpoints.isEmpty ? nil : endpoints
        fingerprint = certificate?.fingerprint.hex
        notValidAfter = certificate?.notValidAfter
        madeByAgent = certificate?.madeByAgent ?? false
        certificatePath = certificate?.certificatePath
    }

    /// `role-printers.json` in the database's folder.
    public static func filePath(forDatabase database: String) -> String {
        (database as NSString).deletingLastPathComponent + "/role-printers.json"
    }

    /// Best effort: status without it says less, and the agent prints on.
    func write(forDatabase database: String) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(self) else { return }
        try? data.write(to: URL(fileURLWithPath: Self.filePath(forDatabase: database)), options: .atomic)
    }

    /// Removes the record: the agent serves no role printer now.
    static func remove(forDatabase database: String) {
        unlink(filePath(forDatabase: database))
    }

    /// What the agent last wrote, nil without a record.
    public static func recorded(forDatabase database: String) -> RolePrinterRecord? {
        guard let data = FileManager.default.contents(atPath: filePath(forDatabase: database)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(RolePrinterRecord.self, from: data)
    }
}
