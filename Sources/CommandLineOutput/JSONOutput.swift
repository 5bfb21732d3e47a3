package import Foundation
package import PrintModel
package import Setup
import Store

/// JSON for scripts: stable keys, sorted, pretty-printed.
package enum JSONOutput {
    package static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// One printer of `printers discover --json`.
package struct DiscoveredPrinterJSON: Encodable {
    package var name: String
    package var serviceName: String
    package var location: String
    package var makeAndModel: String
    package var kinds: [String]?
    package var state: String
    package var stateReasons: [String]
    package var uri: String
    package var secure: Bool
    /// True for a raw printer (`_pdl-datastream._tcp` or USB): it takes ESC/POS or ZPL, not IPP.
    package var raw: Bool
    /// `dnssd` for a printer on the network, `usb` for one plugged into this machine.
    package var found: String
    /// A USB printer's IEEE 1284 device ID, its device node and the language its `CMD:` names.
    package var deviceID: String?
    package var node: String?
    package var language: String?
    package var uuid: String?
    package var error: String?
    package var capabilities: PrinterCapabilities?

    package init(_ listing: PrinterListing) {
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
    package init(_ local: LocalPrinterListing) {
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
package struct AssignmentJSON: Encodable {
    package var role: String
    package var position: Int
    package var rank: String
    package var printerID: Int64
    package var name: String
    package var uri: String
    package var uuid: String?
    package var location: String
    package var makeAndModel: String
    package var kinds: [String]
    package var contactedAt: Date
    package var state: String
    package var stateReasons: [String]
    package var error: String?
    /// The pinned certificate's SHA-256, 64 hex digits; absent when not pinned.
    package var certificatePin: String?
    /// `check` only: true when this check pinned it (saved before pins existed).
    package var pinnedNow: Bool?
    /// What it can do, as saved (or as just found by a check).
    package var capabilities: CapabilitiesJSON

    package init(_ assignment: RoleAssignment, checked: Result<PrinterCapabilities, SetupError>? = nil) {
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
    package init(_ checked: RoleSetup.Checked) {
        self.init(checked.assignment, checked: checked.result)
        certificatePin = checked.pin?.hex
        pinnedNow = checked.pinnedNow
    }
}
