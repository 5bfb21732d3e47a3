public import Foundation

/// Where the running agent serves its raw role printers and who may print
/// there, written beside the database as each listener opens, so that
/// `kioskprint status` shows an administrator the ports to give the tills.
public struct RawPrinterRecord: Codable, Sendable, Equatable {
    /// One listening role.
    public struct Listener: Codable, Sendable, Equatable {
        public var role: String
        /// `HOST:PORT`, the port the one bound.
        public var address: String
        /// The allow-list as written (`192.168.1.0/24`); empty on loopback, where it is not consulted.
        public var clients: [String]

        public init(role: String, address: String, clients: [String]) {
            self.role = role; self.address = address; self.clients = clients
        }
    }

    public var listeners: [Listener]

    public init(listeners: [Listener]) { self.listeners = listeners }

    /// `raw-printers.json` in the database's folder.
    public static func filePath(forDatabase database: String) -> String {
        (database as NSString).deletingLastPathComponent + "/raw-printers.json"
    }

    /// Best effort: status without it says less, and the agent prints on.
    func write(forDatabase database: String) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? data.write(to: URL(fileURLWithPath: Self.filePath(forDatabase: database)), options: .atomic)
    }

    /// Removes the record: the agent serves no raw printer now.
    static func remove(forDatabase database: String) {
        try? FileManager.default.removeItem(atPath: filePath(forDatabase: database))
    }

    /// What the agent last wrote, nil without a record.
    public static func recorded(forDatabase database: String) -> RawPrinterRecord? {
        guard let data = FileManager.default.contents(atPath: filePath(forDatabase: database)) else { return nil }
        return try? JSONDecoder().decode(RawPrinterRecord.self, from: data)
    }

    /// `status`'s line: "Raw printers: receipt on 0.0.0.0:9100 (clients 192.168.1.0/24), ...".
    public var description: String {
        "Raw printers (port 9100 style): " + listeners.map { listener in
            listener.role + " on " + listener.address
                + (listener.clients.isEmpty ? "" : " (clients " + listener.clients.joined(separator: ", ") + ")")
        }.joined(separator: ", ") + "."
    }
}
