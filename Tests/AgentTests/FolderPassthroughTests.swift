@testable import Agent
import KioskConfiguration
import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Spooler
import Store
import Templates
import Testing

/// Raw passthrough and the drawer through a real watched folder (inotify,
/// claims, done/ and failed/): dropped files only queue, nothing prints.
@Suite(.timeLimit(.minutes(1))) struct FolderPassthroughTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-passthrough-\(UUID().uuidString)").path
    let store: KioskStore

    init() throws {
        try FileManager.default.createDirectory(atPath: root + "/in", withIntermediateDirectories: true)
        store = try KioskStore(path: root + "/db/kioskprint.sqlite")
    }

    static let label = "^XA^FO40,40^A0N,30,30^FDPARCEL 4711^FS^XZ"

    func save(_ model: String, port: Int, to role: String) async throws {
        let capabilities = try ModelCatalog.profile(model: model).capabilities(name: "\(model) \(port)")
        _ = try await store.assign(uri: "socket://127.0.0.1:\(port)", serviceName: nil, capabilities: capabilities,
                                   to: try Role(role), as: .primary)
    }

    /// Watches the folder with `role`, drops each file (written under a
    /// `.tmp` name, then renamed, as the documentation asks), and waits until
    /// every one has left the folder for done/ or failed/.
    func drop(_ files: [String: Data], role: String?, template: String? = nil) async throws -> (done: [String], failed: [String]) {
        let log = LogRecorder()
        let settings = FolderSettings(key: "folder[1]", path: root + "/in", role: try role.map(Role.init), template: template)
        let jobs = FolderJobs(settings: settings, intake: JobIntake(store: store, catalog: TemplateCatalog(folders: [])),
                              logger: log.logger, jobQueued: {})
        let watching = Task { try await jobs.run() }
        defer { watching.cancel() }
        try await pollUntil("the folder to be watched", within: .seconds(10)) { log.contains("watching") }
        for (name, bytes) in files {
            try bytes.write(to: URL(fileURLWithPath: root + "/in/\(name).tmp"))
            try FileManager.default.moveItem(atPath: root + "/in/\(name).tmp", toPath: root + "/in/\(name)")
        }
        let names = Set(files.keys)
        var ended: (done: [String], failed: [String]) = ([], [])
        try await pollUntil("every dropped file to reach done/ or failed/", within: .seconds(60)) {
            ended = (listing("done"), listing("failed").filter { !$0.hasSuffix(".error") })
            return names.isSubset(of: Set(ended.done + ended.failed))
        }
        return ended
    }

    func listing(_ subfolder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/in/" + subfolder)) ?? []).sorted()
    }

    func errorText(_ name: String) -> String {
        (try? String(contentsOfFile: root + "/in/failed/\(name).error", encoding: .utf8)) ?? ""
    }

    @Test func zplAndESCPOSFilesArePassedThroughOnTheFoldersRole() async throws {
        try await save("ZD420-203dpi", port: 9200, to: "label")
        let ended = try await drop(["parcel.zpl": Data(Self.label.utf8), "receipt.escpos": Data([0x1B, 0x40, 0x41, 0x0A])],
                                   role: "label")
        #expect(ended.done == ["parcel.zpl"])
        #expect(ended.failed == ["receipt.escpos"])
        #expect(errorText("receipt.escpos").contains("receipt.escpos is ESC/POS, and no printer of the role label takes ESC/POS"))
        let jobs = try await store.jobs()
        #expect(jobs.count == 1)
        guard case .document(let path, let format)? = jobs.first?.content else { Issue.record("a document job was expected"); return }
        #expect(format == "zpl")
        #expect(FileManager.default.contents(atPath: path) == Data(Self.label.utf8))
        #expect(jobs.first?.name == "parcel")
    }

    @Test func envelopesCarryZPLAndTheDrawer() async throws {
        try await save("ZD420-203dpi", port: 9201, to: "label")
        let receipt = try #require(BuiltInTemplates.all.first { $0.name == "receipt" }?.sampleData)
        let ended = try await drop([
            "label-4711.json": Data(#"{"role": "label", "name": "Parcel 4711", "zpl": "\#(Self.label)"}"#.utf8),
            // No printer holds "till" yet: a template job waits for one, and keeps its drawer kick.
            "sale-88.json": Data(#"{"template": "receipt", "role": "till", "drawer": true, "data": \#(receipt)}"#.utf8),
            "escpos-for-label.json": Data(#"{"role": "label", "escpos-base64": "G0BBCg=="}"#.utf8),
            "zpl-with-drawer.json": Data(#"{"role": "label", "zpl": "\#(Self.label)", "drawer": true}"#.utf8),
        ], role: nil)
        #expect(ended.done == ["label-4711.json", "sale-88.json"])
        #expect(ended.failed == ["escpos-for-label.json", "zpl-with-drawer.json"])
        #expect(errorText("escpos-for-label.json").contains("no printer of the role label takes ESC/POS"))
        #expect(errorText("zpl-with-drawer.json").contains("so it cannot kick the cash drawer after them"))

        let jobs = try await store.jobs()
        let parcel = try #require(jobs.first { $0.name == "Parcel 4711" })
        guard case .document(let path, "zpl") = parcel.content else { Issue.record("a ZPL job was expected"); return }
        #expect(FileManager.default.contents(atPath: path) == Data(Self.label.utf8))
        #expect(parcel.opensDrawer == false)
        let sale = try #require(jobs.first { $0.name == "sale-88" })
        #expect(sale.role == (try Role("till")))
        #expect(sale.opensDrawer)
    }

    /// Issue 14: a dropped file cannot name a template file, nor send data the strict reader refuses;
    /// a job name made from a long file name is cleaned to fit with the marker.
    @Test func hostileEnvelopesAreRefusedAndLongFileNamesCleaned() async throws {
        let long = String(repeating: "x", count: 210)  // the claim adds a prefix; 255 bytes is the file system's limit
        let receipt = try #require(BuiltInTemplates.all.first { $0.name == "receipt" }?.sampleData)
        let ended = try await drop([
            "by-path.json": Data(#"{"template": "/etc/kioskprint/templates/receipt.xml", "role": "till", "data": {}}"#.utf8),
            "bad-name.json": Data(#"{"template": "receipt", "role": "till", "name": "Sale\u000088", "data": {}}"#.utf8),
            "\(long).json": Data(#"{"template": "receipt", "role": "till", "data": \#(receipt)}"#.utf8),
        ], role: nil)
        #expect(ended.done == ["\(long).json"])
        #expect(ended.failed == ["bad-name.json", "by-path.json"])
        #expect(errorText("by-path.json").contains("is a file path, and a job file names a template by its name only"))
        #expect(errorText("bad-name.json").contains(#""name": the job name has a control character (U+0000)"#))
        let job = try #require(try await store.jobs().first)
        #expect(job.name == String(repeating: "x", count: JobName.maximumBytes))
    }

    @Test func aDataFolderReadsItsDataAsStrictlyAsTemplatesCheck() async throws {
        let ended = try await drop([
            "latin1.json": Data(Array(#"{"store": {"name": "Caf"#.utf8) + [0xE9] + Array(#""}}"#.utf8)),
        ], role: "till", template: "receipt")
        #expect(ended.failed == ["latin1.json"])
        #expect(errorText("latin1.json").contains("latin1.json:1:24: the data is not UTF-8 text (byte 24 cannot be read)"),
                "\(errorText("latin1.json"))")
    }
}
