import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Spooler
import Store
import Templates
import Testing

/// A raw job on a slow link prints once. Until issue 27 one deadline covered
/// the whole send, so a job that took its line longer than that came to an
/// unknown fate and was printed again marked REPRINT, at once and without
/// end. The printers here take the bytes at a serial line's speed (a
/// pseudo-terminal drained at baud / 10 bytes a second) or at a slow
/// printer's (2 KB a second over TCP), and each job takes its line several
/// times the stall window the spooler is given: with that window as a fixed
/// deadline for the whole job, as before, none of them prints once.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SlowRawLinkTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-slowraw-\(UUID().uuidString)").path
    let store: KioskStore
    let events = EventLog()

    /// How long a printer may take nothing and say nothing (the raw session's
    /// timeout, from `requestTimeout`): every job below takes its line about
    /// three times as long.
    static let stallWindow = Duration.milliseconds(1500)

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        store = try KioskStore(path: folder + "/db/kioskprint.sqlite")
    }

    /// An ESC/POS receipt of about `size` bytes as a POS program writes it:
    /// ESC @, one `GS v 0` raster image 576 dots (72 bytes) wide, then feed
    /// and cut (GS V 66 0). Every row carries ink, so the printer's piece is
    /// as long as the image.
    static func receipt(size: Int) -> [UInt8] {
        let widthBytes = 72
        let rows = (size - 14) / widthBytes
        var bytes: [UInt8] = [0x1B, 0x40, 0x1D, 0x76, 0x30, 0x00, UInt8(widthBytes), 0, UInt8(rows & 0xFF), UInt8(rows >> 8)]
        for row in 0..<rows {
            bytes += (0..<widthBytes).map { UInt8(truncatingIfNeeded: ($0 &* 7) ^ row) | 0x01 }
        }
        return bytes + [0x1D, 0x56, 0x42, 0x00]
    }

    /// Saves a TM-T20III at `uri` for role receipt and queues `bytes` there as
    /// an ESC/POS file passed through as it is.
    func queue(_ bytes: [UInt8], for uri: String) async throws -> PrintJob {
        let capabilities = try ModelCatalog.profile(model: "TM-T20III").capabilities(name: "Slow TM-T20III")
        _ = try await store.assign(uri: uri, serviceName: nil, capabilities: capabilities, to: try Role("receipt"), as: .primary)
        let path = folder + "/receipt.escpos"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try await JobIntake(store: store, catalog: TemplateCatalog(folders: [])).queueFile(path, role: try Role("receipt"))
    }

    /// Delivers the job until it ends or its fate first goes unknown,
    /// whichever comes first: the second, under `reprint-marked`, is the
    /// failure these tests look for, and used to repeat without end.
    func deliverUntilSettled(_ id: JobID) async throws -> PrintJob {
        var configuration = SpoolLab.configuration
        configuration.requestTimeout = Self.stallWindow
        let events = events
        let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()), configuration: configuration) {
            events.append($0)
        }
        let delivery = Task { try await spooler.deliver(id) }
        defer { delivery.cancel() }
        let store = store
        try await pollUntil("job \(id) to end or its fate to go unknown", within: .seconds(60)) {
            if events.all.contains(where: { if case .unknownFate = $0 { true } else { false } }) { return true }
            return try await store.job(id).state.isTerminal
        }
        return try await store.job(id)
    }

    /// The job completed once: no unknown fate, no REPRINT, one piece cut,
    /// and the printer received the job's bytes once (plus status requests).
    func expectPrintedOnce(_ job: PrintJob, _ size: Int, on printer: EscPosPrinterSimulator) {
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        #expect(!events.lines.contains { $0.contains("REPRINT") || $0.contains("is unknown") }, "\(events.lines)")
        #expect(job.attempts == 0, "no send failed")
        let record = printer.record
        #expect(record.pieces.count == 1)
        #expect(record.bytesReceived >= size && record.bytesReceived < size + 100, "sent once: \(record.bytesReceived) bytes")
    }

    @Test(arguments: [9600, 19200])
    func aSerialReceiptTakingItsLineLongerThanTheStallWindowPrintsOnce(baud: Int) async throws {
        // Three stall windows' worth of the line: 4.3 KB at 9600 baud, 8.6 KB at 19200.
        let size = Int(Double(baud / 10) * 3 * Self.stallWindow.inSeconds)
        let printer = try EscPosPrinterSimulator.serialLine(.init(bytesPerSecond: baud / 10))
        defer { printer.stop() }
        let path = try #require(printer.devicePath)
        let receipt = Self.receipt(size: size)
        let queued = try await queue(receipt, for: "serial://\(path)?baud=\(baud)")

        let job = try await deliverUntilSettled(queued.id)
        expectPrintedOnce(job, receipt.count, on: printer)
    }

    @Test func aSocketPrinterReadingTwoKilobytesASecondPrintsOnce() async throws {
        // The printer's small receive window (as a receipt printer's is) keeps
        // most of the job in the agent's socket, where its progress shows.
        let printer = try EscPosPrinterSimulator(configuration: .init(receiveBufferBytes: 1024, bytesPerSecond: 2048))
        defer { printer.stop() }
        let size = Int(2048 * 3 * Self.stallWindow.inSeconds)
        let receipt = Self.receipt(size: size)
        let queued = try await queue(receipt, for: printer.uri)

        let job = try await deliverUntilSettled(queued.id)
        expectPrintedOnce(job, receipt.count, on: printer)
    }
}

extension Duration {
    /// The length in seconds, to size a job by a line's speed.
    fileprivate var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
