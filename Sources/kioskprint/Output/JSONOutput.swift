import Foundation
import PrintModel
import Setup
import Store

/// JSON for scripts: stable keys, sorted, pretty-printed.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// One printer of `printers discover --json`.
struct DiscoveredPrinterJSON: Encodable {
    var name: String
    var serviceName: String
    var location: String
    var makeAndModel: String
    var kinds: [String]?
    var state: String
    var stateReasons: [String]
    var uri: String
    var secure: Bool
    var uuid: String?
    var error: String?
    var capabilities: PrinterCapabilities?

    init(_ listing: PrinterListing) {
        name = listing.name
        serviceName = listing.discovered.serviceName
        location = listing.location
        makeAndModel = listing.makeAndModel
        kinds = listing.kinds?.sorted().map(\.rawValue)
        uri = listing.uri
        secure = listing.discovered.secure
        uuid = listing.discovered.txt.uuid
        capabilities = listing.capabilities
        switch listing.contact {
        case .pending: state = "unknown"; stateReasons = []
        case .failed(let message): state = "unreachable"; stateReasons = []; error = message
        case .answered(let capabilities):
            state = capabilities.state.rawValue
            stateReasons = capabilities.stateReasons.map(\.keyword).filter { $0 != "none" }
        }
    }
}

/// One role assignment of `printers list --json` and `printers check --json`.
struct AssignmentJSON: Encodable {
    var role: String
    var position: Int
    var rank: String
    var printerID: Int64
    var name: String
    var uri: String
    var uuid: String?
    var location: String
    var makeAndModel: String
    var kinds: [String]
    var contactedAt: Date
    var state: String
    var stateReasons: [String]
    var error: String?
    /// What it can do, as saved (or as just found by a check).
    var capabilities: CapabilitiesJSON

    init(_ assignment: RoleAssignment, checked: Result<PrinterCapabilities, SetupError>? = nil) {
        let printer = assignment.printer
        role = assignment.role.name
        position = assignment.position
        rank = assignment.rank
        printerID = printer.id
        name = printer.name
        uri = printer.uri
        uuid = printer.uuid
        location = printer.capabilities.location
        makeAndModel = printer.capabilities.makeAndModel
        kinds = printer.capabilities.kinds.sorted().map(\.rawValue)
        contactedAt = printer.contactedAt
        var capabilities = printer.capabilities
        switch checked {
        case .success(let fresh): capabilities = fresh
        case .failure(let failure): error = failure.description
        case nil: break
        }
        self.capabilities = CapabilitiesJSON(capabilities)
        state = error == nil ? capabilities.state.rawValue : "unreachable"
        stateReasons = capabilities.stateReasons.map(\.keyword).filter { $0 != "none" }
    }
}
