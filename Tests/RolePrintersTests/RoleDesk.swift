import Foundation
import IPP
import PrintModel
import RolePrinters
import Spooler
import Simulator
import Store
import Templates

/// A role printer served in this process from a real SQLite store, with an
/// 80 mm receipt printer (72 mm printable, cuts 25 mm to 3 m) holding the
/// role `receipt`: requests go straight to `RolePrinterServer.respond`.
struct RoleDesk {
    let store: KioskStore
    let server: RolePrinterServer
    let folder: String
    var requestID = 0

    static let receiptPrinter = PrinterCapabilities(
        name: "Counter TM-80", kinds: [.receipt, .roll], documentFormats: ["image/pwg-raster", "image/urf"],
        resolutions: Resolutions(pwgRaster: [Resolution(203)], preferred: Resolution(203)),
        rolls: [RollMedia(width: .millimetres(80), cutLengths: .millimetres(25) ... .millimetres(3000),
                          margins: Margins(left: .millimetres(4), right: .millimetres(4)), source: "main-roll")],
        trims: [.afterPages])

    static func make(printer: PrinterCapabilities = receiptPrinter, roles: Set<Role> = [.receipt],
                     uri: String = "ipp://127.0.0.1:1/ipp/print", signals: (any RoleSignals)? = nil,
                     conditions: (@Sendable () -> [PrinterCondition])? = nil) async throws -> RoleDesk {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("role-desk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try KioskStore(path: folder + "/kioskprint.sqlite")
        _ = try await store.assign(uri: uri, serviceName: nil, capabilities: printer, to: .receipt, as: .primary)
        let identity = RolePrinterIdentity(box: "till-3", moreInfo: "http://127.0.0.1:9180/", requiresToken: false,
                                           maxDocumentBytes: 1 << 20, seed: "test-seed")
        let server = RolePrinterServer(intake: JobIntake(store: store, catalog: TemplateCatalog(folders: [])),
                                       canceller: JobCanceller(store: store), roles: roles, identity: identity,
                                       channels: .standard(timeout: .seconds(2)), signals: signals, conditions: conditions)
        return RoleDesk(store: store, server: server, folder: folder)
    }

    /// Sends one request: the operation attributes after the charset and
    /// language, then the job attributes, and the document.
    mutating func send(_ operation: Int, role: Role = .receipt, user: String = "till", _ attributes: [IPPAttribute] = [],
                       job: [IPPAttribute] = [], document: Data = Data(), version: IPPVersion = .init(major: 2, minor: 0),
                       requestID: Int? = nil, printerURI: String? = nil) async -> IPPMessage {
        self.requestID += 1
        let uri = printerURI ?? "ipp://localhost:8631/ipp/print/\(role)"
        var operationGroup = RoleDesk.preamble + [IPPAttribute.uriValue("printer-uri", uri),
                                                  IPPAttribute(name: "requesting-user-name", syntax: .name, group: .operation,
                                                               values: [.string(user)])]
        operationGroup += attributes
        var groups = [IPPAttributeGroup(tag: .operation, attributes: operationGroup)]
        if !job.isEmpty { groups.append(IPPAttributeGroup(tag: .job, attributes: job)) }
        let message = IPPMessage(version: version, code: operation, requestID: requestID ?? self.requestID, groups: groups)
        return await server.respond(to: RolePrinterRequest(message: message, document: document, role: role,
                                                           base: "ipp://localhost:8631"))
    }

    static let preamble: [IPPAttribute] = [
        IPPAttribute(name: "attributes-charset", syntax: .charset, group: .operation, values: [.string("utf-8")]),
        IPPAttribute(name: "attributes-natural-language", syntax: .naturalLanguage, group: .operation, values: [.string("en")]),
    ]

    /// A small grey JPEG, the document most tests print.
    static func jpeg() throws -> Data {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("role-desk-\(UUID().uuidString).jpg").path
        // Simulator's posix_spawn: Foundation's Process, waited on from two test threads at once, hung.
        _ = try Subprocess.run("/usr/bin/gs", ["-q", "-sDEVICE=jpeggray", "-r72", "-g200x120", "-o", path, "-c",
                                               "0.5 setgray 0 0 200 120 rectfill showpage"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}

extension IPPAttribute {
    static func uriValue(_ name: String, _ value: String) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .uri, group: .operation, values: [.string(value)])
    }
}

extension IPPMessage {
    /// The status as `IPPStatus`, for messages in failed expectations.
    var status: IPPStatus { IPPStatus(rawValue: code) }
    var statusMessage: String { attributes(in: .operation).string("status-message") ?? "" }
}

extension Role {
    // Role names are checked when made; these are valid.
    static let receipt = try! Role("receipt")
    static let coupon = try! Role("coupon")
    static let kitchen = try! Role("kitchen")
}
