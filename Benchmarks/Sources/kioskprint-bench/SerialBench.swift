import BenchSupport
import Foundation
import PrintModel
import PrinterLanguages
import Simulator
import Spooler
import Store
import Templates

/// `kioskprint-bench serial [--receipts N]`: issue 31's figure. The 30-item
/// receipt through `Spooler.deliver` to a printer on a serial line (a
/// pseudo-terminal drained at the line's rate, baud / 10 bytes a second) in
/// each raw language KioskPrint speaks: ESC/POS (a TM-T20III) drawn whole
/// (`delivery = "raster"`) and with its text in the printer's font
/// (`native`), Star Graphic (a TSP143III), Star Line (a TSP654II) and
/// StarPRNT (an mC-Print3), at 115200 and 19200 baud: queued to completed,
/// and the bytes on the wire. Needs neither root nor a lab.
enum SerialBench {
    static let defaultReceipts = 3
    static let bauds = [115_200, 19_200]
    static let printers: [Printer] = [
        Printer(model: "TM-T20III", language: .escpos, delivery: .raster),
        Printer(model: "TM-T20III", language: .escpos, delivery: .native),
        Printer(model: "TSP143", language: .starGraphic), Printer(model: "TSP654", language: .starLine),
        Printer(model: "mC-Print3", language: .starPRNT),
    ]

    /// One printer, and how its role sends it a document.
    struct Printer {
        var model: String
        var language: PrinterLanguage
        var delivery: RawDelivery = .raster

        /// The role it is saved under at `baud`.
        func role(baud: Int) throws -> Role {
            try Role("serial-\(language.rawValue.lowercased())-\(delivery.rawValue)-\(baud)")
        }

        var label: String { language == .escpos ? "\(language) \(delivery)" : "\(language)" }
    }

    /// One printer at one speed.
    struct Figures {
        var toCompleted: [Duration] = []
        var bytes: [Int] = []
        var exactCuts = 0
        var failures: [String] = []
    }

    static func run(receipts: Int) async -> Never {
        await BenchReport.run("serial") {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-serial-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try KioskStore(path: folder.appendingPathComponent("serial.sqlite").path)
            var delivery: [Role: RawDelivery] = [:]
            for baud in bauds { for printer in printers { delivery[try printer.role(baud: baud)] = printer.delivery } }
            let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog(), rawDelivery: delivery))
            let content = JobContent.template(name: "receipt", dataJSON: try LongReceipt.json())

            var table = ColumnTable("printer, language, line", "receipts", "queued -> completed, median (max)", "bytes on the wire",
                                    "cut exact")
            var passed = true
            for baud in bauds {
                for printer in printers {
                    // At 19200 a raster receipt takes most of a minute: one each is enough to show it.
                    let count = baud < 115_200 && printer.delivery == .raster ? 1 : receipts
                    progress("\(count) receipt(s) to a \(printer.model) (\(printer.label)) at \(baud) baud")
                    let figures = try await measure(printer, baud: baud, receipts: count, store: store, spooler: spooler,
                                                    content: content)
                    let sample = Sample(figures.toCompleted)
                    table.add("\(printer.model), \(printer.label), \(baud) baud", "\(figures.toCompleted.count)",
                              sample.medianAndMax(missing: figures.failures.count),
                              figures.bytes.max().map { "\($0) B" } ?? "-", "\(figures.exactCuts) of \(figures.toCompleted.count)")
                    if !figures.failures.isEmpty {
                        passed = false
                        FileHandle.standardError.write(Data("\(printer.model) at \(baud): \(figures.failures)\n".utf8))
                    }
                }
            }
            let title = "1. A \(LongReceipt.items)-item receipt through Spooler.deliver to a printer on a serial line "
                + "(a pseudo-terminal read at baud / 10 bytes a second), each language KioskPrint speaks"
            let notes = """
                Bytes on the wire: every byte the simulator read during the job, the spooler's status requests included \
                (ESC/POS DLE EOT and GS ( H; Star ESC ACK SOH). ESC/POS raster sends the inked rows as GS v 0 raster in bands \
                only from their ink's left edge (GS L) to its right, and every white run as an ESC J feed; ESC/POS native \
                sends each line of text as characters in Font A (ESC $, ESC E, GS !, ESC t, LF at the drawn rows) and the \
                rest as raster; Star Graphic and Star Line send each row without its trailing white \
                bytes and white runs as ESC * r Y; StarPRNT sends ESC GS S blocks as wide as their widest inked row. \
                Cut exact: the piece's length in dots is the planned cut length at 203 dpi.
                """
            return .init(blocks: [([title, ""] + table.render()).joined(separator: "\n"), notes],
                         legend: "ms = milliseconds, B = bytes", passed: passed)
        }
    }

    private static func measure(_ printer: Printer, baud: Int, receipts: Int,
                                store: KioskStore, spooler: Spooler, content: JobContent) async throws -> Figures {
        let profile = try ModelCatalog.profile(model: printer.model)
        let role = try printer.role(baud: baud)
        var figures = Figures()
        let line = baud / 10
        // The simulator of the printer's language, and what it read and cut so far.
        let record: @Sendable () -> (bytes: Int, pieces: [Int])
        let uri: String
        let stop: @Sendable () -> Void
        if printer.language == .escpos {
            let simulator = try EscPosPrinterSimulator.serialLine(.init(printableWidth: profile.printableDots, dotsPerInch: profile.dpi,
                                                                        bytesPerSecond: line))
            record = { let r = simulator.record; return (r.bytesReceived, r.pieces.map(\.lengthInDots)) }
            uri = simulator.endpoint.uri(baud: baud)
            stop = { simulator.stop() }
        } else {
            let simulator = try StarPrinterSimulator.serialLine(.init(emulation: printer.language, printableWidth: profile.printableDots,
                                                                      bytesPerSecond: line))
            record = { let r = simulator.record; return (r.bytesReceived, r.pieces.map(\.lengthInDots)) }
            uri = simulator.endpoint.uri(baud: baud)
            stop = { simulator.stop() }
        }
        defer { stop() }
        _ = try await store.assign(uri: uri, serviceName: nil, capabilities: profile.capabilities(name: "\(printer.model) on \(baud)"),
                                   to: role, as: .primary)
        for index in 0..<receipts {
            let before = record()
            let job = try await store.enqueue(name: "serial receipt \(index + 1)", role: role, content: content)
            let started = ContinuousClock.now
            let ended = try await spooler.deliver(job.id)
            let elapsed = ContinuousClock.now - started
            guard ended.state == .completed else {
                figures.failures.append("\(ended.state): \(ended.lastError ?? "")")
                continue
            }
            figures.toCompleted.append(elapsed)
            let after = record()
            figures.bytes.append(after.bytes - before.bytes)
            let planned = (ended.cutLengths ?? []).map { Length(hundredthsOfMillimetre: $0).dots(at: profile.dpi) }
            if Array(after.pieces.dropFirst(before.pieces.count)) == planned { figures.exactCuts += 1 }
        }
        return figures
    }
}
