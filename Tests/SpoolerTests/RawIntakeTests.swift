import Foundation
import PrintModel
import PrinterLanguages
import Spooler
import Store
import Templates
import Testing

/// Printer-language files at intake: queued only for a role with a printer
/// of their language, refused before anything is stored otherwise.
@Suite struct RawIntakeTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-rawintake-\(UUID().uuidString)").path
    let store: KioskStore
    let intake: JobIntake

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        store = try KioskStore(path: folder + "/db/kioskprint.sqlite")
        intake = JobIntake(store: store, catalog: TemplateCatalog(folders: []))
    }

    static let label = Data("^XA\n^FO50,50^A0N,40,40^FDSHIP TO 4711^FS\n^XZ\n".utf8)
    /// ESC @ (initialise), text, GS V 66 0 (feed and cut), from Epson's ESC/POS command reference.
    static let receipt = Data([0x1B, 0x40] + Array("Total 12.50\n".utf8) + [0x1D, 0x56, 0x42, 0x00])

    func file(_ name: String, _ bytes: Data) throws -> String {
        let path = folder + "/" + name
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    func save(_ model: String, uri: String, to role: String, as place: RolePlace = .primary) async throws {
        let capabilities = try ModelCatalog.profile(model: model).capabilities(name: "\(model) at \(uri)")
        _ = try await store.assign(uri: uri, serviceName: nil, capabilities: capabilities, to: try Role(role), as: place)
    }

    /// Why `queueFile` refused the file; nil when it queued it.
    func refusal(_ path: String, role: String, language: PrinterLanguage? = nil) async throws -> IntakeError? {
        let role = try Role(role)
        do {
            _ = try await intake.queueFile(path, role: role, language: language)
            return nil
        } catch { return error }
    }

    var spooled: [String] { (try? FileManager.default.contentsOfDirectory(atPath: intake.spoolFolder)) ?? [] }

    @Test func aZPLFileForALabelRoleIsQueuedAsZPL() async throws {
        try await save("ZD420-203dpi", uri: "socket://127.0.0.1:9100", to: "label")
        let job = try await intake.queueFile(try file("label.zpl", Self.label), role: try Role("label"))
        guard case .document(let path, let format) = job.content else { Issue.record("a document job was expected"); return }
        #expect(format == "zpl")
        #expect(path.hasPrefix(intake.spoolFolder + "/"))
        #expect(FileManager.default.contents(atPath: path) == Self.label)
        #expect(job.name == "label.zpl")
        #expect(job.opensDrawer == false)
        #expect(try await store.jobs().map(\.id) == [job.id])
    }

    @Test func zplForAReceiptRoleIsRefusedNamingTheRoleAndTheLanguage() async throws {
        try await save("TM-T88VI", uri: "socket://127.0.0.1:9101", to: "receipt")
        let refused = try #require(try await refusal(try file("label.zpl", Self.label), role: "receipt"))
        #expect(refused.kind == .refused)
        #expect(refused.message.contains("label.zpl is ZPL II, and no printer of the role receipt takes ZPL II"))
        #expect(refused.message.contains("ESC/POS only"))
        #expect(try await store.jobs(includeFinished: true).isEmpty)
        #expect(spooled.isEmpty)
    }

    @Test func anIPPPrinterListingZPLOrABackupOfTheLanguageTakesIt() async throws {
        // LPrint lists application/vnd.zebra-zpl beside PWG raster: an IPP printer that takes ZPL.
        var lprint = try ModelCatalog.profile(model: "ZD420-203dpi").capabilities(name: "LPrint ZD420")
        lprint.rawProfile = nil
        lprint.documentFormats = ["image/pwg-raster", "application/vnd.zebra-zpl"]
        _ = try await store.assign(uri: "ipp://127.0.0.1:8631/ipp/print/zd420", serviceName: nil, capabilities: lprint,
                                   to: try Role("shipping"), as: .primary)
        let viaIPP = try await intake.queueFile(try file("parcel.zpl", Self.label), role: try Role("shipping"))
        #expect(viaIPP.content == .document(path: try #require(spooledPath(of: viaIPP)), format: "zpl"))

        // A receipt primary with a ZPL backup: the backup can print it.
        try await save("TM-T20III", uri: "socket://127.0.0.1:9102", to: "counter")
        try await save("ZD620-203dpi", uri: "socket://127.0.0.1:9103", to: "counter", as: .backup)
        let viaBackup = try await intake.queueFile(try file("tag.zpl", Self.label), role: try Role("counter"))
        #expect(viaBackup.role == (try Role("counter")))
    }

    func spooledPath(of job: PrintJob) -> String? {
        if case .document(let path, _) = job.content { path } else { nil }
    }

    @Test func aBinFileNeedsItsLanguage() async throws {
        try await save("TM-T88VI", uri: "socket://127.0.0.1:9104", to: "receipt")
        let path = try file("receipt.bin", Self.receipt)
        let refused = try #require(try await refusal(path, role: "receipt"))
        #expect(refused.message.contains("receipt.bin does not say which printer language it is in"))
        #expect(refused.message.contains("--language escpos"))
        #expect(try await store.jobs().isEmpty)

        let job = try await intake.queueFile(path, role: try Role("receipt"), language: .escpos)
        guard case .document(_, let format) = job.content else { Issue.record("a document job was expected"); return }
        #expect(format == "escpos")
        #expect(try await store.jobs().map(\.id) == [job.id])
    }

    @Test func aFileThatIsNotZPLIsRefused() async throws {
        try await save("ZD420-203dpi", uri: "socket://127.0.0.1:9105", to: "label")
        let refused = try #require(try await refusal(try file("notes.zpl", Data("just some notes\n".utf8)), role: "label"))
        #expect(refused.kind == .refused)
        #expect(refused.message.hasPrefix("notes.zpl cannot be printed as ZPL II: it is not ZPL"))
        #expect(try await store.jobs().isEmpty)
        #expect(spooled.isEmpty)
    }

    @Test func aRoleNoPrinterHoldsOrAMismatchedLanguageIsRefused() async throws {
        let error = try await refusal(try file("label.zpl", Self.label), role: "label")
        #expect(error?.message.contains("no printer holds that role yet") == true)
        #expect(error?.message.contains("kioskprint printers add URI --role label") == true)

        try await save("ZD420-203dpi", uri: "socket://127.0.0.1:9106", to: "label")
        let mismatch = try await refusal(try file("label.zpl", Self.label), role: "label", language: .escpos)
        #expect(mismatch?.message == "label.zpl is named as ZPL II (.zpl), but its language was given as ESC/POS. "
            + "Rename the file, or give the language it is written in.")
        let pdf = try await refusal(try file("ticket.pdf", Data("%PDF-1.4\n%%EOF\n".utf8)), role: "label", language: .zpl)
        #expect(pdf?.message.hasPrefix("ticket.pdf was given the language ZPL II") == true)
        #expect(try await store.jobs().isEmpty)
    }

    @Test func envelopeBytesAreSpooledUnderTheirLanguage() async throws {
        try await save("ZD420-203dpi", uri: "socket://127.0.0.1:9107", to: "label")
        let job = try await intake.queueLanguageBytes(Self.label, language: .zpl, file: "order-4711.json", role: try Role("label"))
        let path = try #require(spooledPath(of: job))
        #expect(path.hasSuffix("-order-4711.zpl"))
        #expect(FileManager.default.contents(atPath: path) == Self.label)
        #expect(job.name == "order-4711")
    }

    @Test func aDrawerKickAfterPassedThroughBytesIsRefused() async throws {
        try await save("TM-T20III", uri: "socket://127.0.0.1:9108", to: "receipt")
        let path = try file("sale.escpos", Self.receipt)
        let role = try Role("receipt")
        var refused: IntakeError?
        do { _ = try await intake.queueFile(path, role: role, opensDrawer: true) } catch { refused = error }
        #expect(refused?.message.contains("sale.escpos is ESC/POS sent as it is") == true)
        #expect(refused?.message.contains("put the drawer pulse (ESC p) in the ESC/POS itself") == true)
        #expect(try await store.jobs().isEmpty)
        #expect(spooled.isEmpty)
    }
}
