import Foundation
import IPP
import PrintModel
import RolePrinters
import Spooler
import Store
import Templates

/// A role printer's operations, driven in process: each input is an IPP
/// request (read as the listener reads it, the rest its document) answered
/// for the role `receipt`, held by an 80 mm receipt printer, over a real
/// SQLite file. Whatever the attributes say (any job-id, media-col, copies,
/// requested-attributes), the answer must be an IPP message that reads
/// again, with the request's id.
enum RolePrinterReader {
    static let role = try! Role("receipt")  // a valid name, checked by the first input

    /// Made once per process: a store in a folder of its own.
    static let server: RolePrinterServer? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-fuzz-ipp-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return wait {
            guard let store = try? KioskStore(path: folder + "/kioskprint.sqlite") else { return nil }
            let receipt = PrinterCapabilities(
                name: "Fuzz TM-80", kinds: [.receipt, .roll], documentFormats: ["image/pwg-raster"],
                resolutions: Resolutions(pwgRaster: [Resolution(203)], preferred: Resolution(203)),
                rolls: [RollMedia(width: .millimetres(80), cutLengths: .millimetres(25) ... .millimetres(3000),
                                  margins: Margins(left: .millimetres(4), right: .millimetres(4)), source: "main-roll")],
                trims: [.afterPages])
            guard (try? await store.assign(uri: "ipp://127.0.0.1:9/ipp/print", serviceName: nil, capabilities: receipt,
                                           to: role, as: .primary)) != nil else { return nil }
            let identity = RolePrinterIdentity(box: "fuzz", moreInfo: nil, requiresToken: false, maxDocumentBytes: 65_536, seed: "fuzz")
            return RolePrinterServer(intake: JobIntake(store: store, catalog: TemplateCatalog()), canceller: JobCanceller(store: store),
                                     roles: [role], identity: identity)
        }
    }()

    static func respond(_ data: Data) {
        guard let server, let (message, offset) = try? IPPMessage.decode([UInt8](data)) else { return }
        let request = RolePrinterRequest(message: message, document: data.subdata(in: offset..<data.count), role: role,
                                         base: "ipp://localhost:8631")
        let reply = wait { await server.respond(to: request) }
        // Read back without the listener's limit on requests: a Get-Jobs answer lists every job (the
        // fuzzer's own inputs queue hundreds), and a client reads it whole.
        var unbounded = IPPWireLimits()
        unbounded.attributes = .max
        let again = try? IPPMessage.decode(reply.encoded(), limits: unbounded)
        precondition(again?.message.requestID == message.requestID, "a role printer's answer does not read again with the request's id")
    }
}
