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
    /// True for a raw printer (`_pdl-datastream._tcp` or USB): it takes ESC/POS or ZPL, not IPP.
    var raw: Bool
    /// `dnssd` for a printer on the network, `usb` for one plugged into this machine.
    var found: String
    /// A USB printer's IEEE 1284 device ID, its device node and the language its `CMD:` names.
    var deviceID: String?
    var node: String?
    var language: String?
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
        raw = listing.discovered.raw
        found = "dnssd"
        language = listing.capabilities?.rawProfile?.language.rawValue
        uuid = listing.discovered.txt.uuid
        capabilities = listing.capabilities
        switch listing.contact {
        case .pending: state = "unknown"; stateReasons = []
        case .failed(let message): state = "unreachable"; stateReasons = []; error = message
        case .modelUnknown(let message): state = "model-unknown"; stateReasons = []; error = message
        case .answered(let capabilities):
            state = capabilities.state.rawValue
            stateReasons = capabilities.stateReasons.map(\.keyword).filter { $0 != "none" }
        }
    }
}

extension DiscoveredPrinterJSON {
    /// A USB printer plugged into this machine.
    init(_ local: LocalPrinterListing) {
        name = local.makeAndModel
        serviceName = ""
        location = ""
        makeAndModel = local.makeAndModel
        kinds = local.catalogEntry.map { [$0.profile.kind.rawValue, "roll"] } ?? local.language.map { [$0.usualKind.rawValue, "roll"] }
        state = local.catalogEntry == nil ? "model-unknown" : "unknown"
        stateReasons = []
        uri = local.uri
        secure = false
        raw = true
        found = "usb"
        deviceID = local.printer.deviceID.text
        node = local.printer.node
        language = local.language?.rawValue
        if local.catalogEntry == nil { error = local.note }
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
    /// The pinned certificate's SHA-256, 64 hex digits; absent when not pinned.
    var certificatePin: String?
    /// `check` only: true when this check pinned it (saved before pins existed).
    var pinnedNow: Bool?
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
        certificatePin = printer.certificatePin?.hex
        var capabilities = printer.capabilities
        var failedState = "unreachable"
        switch checked {
        case .success(let fresh): capabilities = fresh
        case .failure(let failure): error = failure.description; failedState = PinText.failedState(failure)
        case nil: break
        }
        self.capabilities = CapabilitiesJSON(capabilities)
        state = error == nil ? capabilities.state.rawValue : failedState
        stateReasons = capabilities.stateReasons.map(\.keyword).filter { $0 != "none" }
    }

    /// A row of `check --json`: with the pin in force after the check.
    init(_ checked: RoleSetup.Checked) {
        self.init(checked.assignment, checked: checked.result)
        certificatePin = checked.pin?.hex
        pinnedNow = checked.pinnedNow
    }
}
