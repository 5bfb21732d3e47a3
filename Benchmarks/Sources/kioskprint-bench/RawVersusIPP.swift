import Foundation
import PrintModel
import PrinterLanguages
import Setup
import Simulator
import Spooler
import Store
import Templates

/// Issue 11's figure: one 30-item receipt delivered through `Spooler.deliver`
/// to a raw-TCP ESC/POS printer (the in-process simulator, saved as a
/// TM-T20III from the catalog) and to the 80 mm IPP printer (a recording
/// ippeveprinter), alternating job by job through one spooler and one store,
/// so that both paths meet the same load on a shared machine.
struct RawVersusIPP: Sendable {
    /// What one path gave over its timed jobs.
    struct Path: Sendable {
        /// From `enqueue` returning to `deliver` returning with the job completed.
        var toCompleted: [Duration] = []
        /// Bytes the printer received for each timed job that completed.
        var bytes: [Int] = []
        /// This process's CPU time (RUSAGE_SELF, user + system) summed over
        /// every timed job, from just before `enqueue` to `deliver` returning.
        var processCPU: Duration = .zero
        /// The simulator thread's CPU time over the same windows; nil on the
        /// IPP path (its printer is another process) or when the thread was not found.
        var simulatorCPU: Duration?
        /// Timed jobs that did not end `completed`: their state and error.
        var failures: [String] = []
        /// The cut length the spooler planned for the last job, hundredths of a millimetre.
        var cutLength: Int?

        var jobs: Int { toCompleted.count + failures.count }

        /// The agent's share of the CPU per job: the process's time less the simulator's.
        var agentCPUPerJob: Duration? {
            guard jobs > 0 else { return nil }
            return (processCPU - (simulatorCPU ?? .zero)) / jobs
        }
    }

    var raw = Path()
    var ipp = Path()
    /// The simulator's thread, its id and kernel name; nil when it could not be
    /// found, and then the raw path's CPU figure includes it.
    var simulatorThread: String?
    /// Raw pieces whose length in dots is the planned cut length at the stated
    /// dpi (as the renderer draws the page), of all timed raw pieces.
    var rawCutsExact = 0
    var rawPieces = 0
    /// A raw piece's length in dots, for the table.
    var rawPieceDots: Int?
    /// The document format the IPP printer recorded.
    var ippFormat: String?
    /// The raw printer's make and model, resolution and printable dots, from the catalog.
    var rawModel = ""
    var rawDPI = 0
    var rawDots = 0

    /// The model the raw printer is saved as.
    static let rawModelName = "TM-T20III"

    /// `simulator` is the thread `escpos` reads and interprets on, whose CPU
    /// time is taken out of the raw path's; nil when it could not be found.
    static func measure(ipp printer: RunningPrinter, escpos: EscPosPrinterSimulator, simulator: ThreadClock?,
                        receipts: Int, warmUps: Int, folder: URL) async throws -> RawVersusIPP {
        let store = try KioskStore(path: folder.appendingPathComponent("raw-versus-ipp.sqlite").path)
        let ippRole = try Role("receipt"), rawRole = try Role("raw-receipt")
        _ = try await RoleSetup(store: store).add(uri: printer.uri, role: ippRole, as: .primary)
        let profile = try ModelCatalog.profile(model: rawModelName)
        _ = try await store.assign(uri: escpos.uri, serviceName: nil,
                                   capabilities: profile.capabilities(name: "Bench ESC/POS \(rawModelName)"),
                                   to: rawRole, as: .primary)
        let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: TemplateCatalog()))
        let content = JobContent.template(name: "receipt", dataJSON: try LongReceipt.json())

        var result = RawVersusIPP(simulatorThread: nil, rawModel: profile.makeAndModel, rawDPI: profile.dpi,
                                  rawDots: profile.printableDots)
        result.simulatorThread = simulator.map { "thread \($0.threadID), \"\($0.name)\"" }

        for round in 0..<(warmUps + receipts) {
            let timed = round >= warmUps
            // Alternate which path goes first, so neither always follows the other's leftovers.
            for raw in round % 2 == 0 ? [true, false] : [false, true] {
                let piecesBefore = escpos.record.pieces.count
                let bytesBefore = escpos.record.bytesReceived
                let simulatorBefore = simulator?.used()
                let cpuBefore = ProcessCPU.used()
                let job = try await store.enqueue(name: "bench \(raw ? "raw" : "ipp") receipt \(round + 1)",
                                                  role: raw ? rawRole : ippRole, content: content)
                let accepted = ContinuousClock.now
                let ended = try await spooler.deliver(job.id)
                let elapsed = ContinuousClock.now - accepted
                let cpu = ProcessCPU.used() - cpuBefore
                let simulatorAfter = simulator?.used()
                let simulatorCPU = simulatorBefore.flatMap { before in simulatorAfter.map { $0 - before } }
                guard timed else { continue }

                var path = raw ? result.raw : result.ipp
                path.processCPU += cpu
                if raw, let simulatorCPU { path.simulatorCPU = (path.simulatorCPU ?? .zero) + simulatorCPU }
                if ended.state == .completed {
                    path.toCompleted.append(elapsed)
                    path.cutLength = ended.cutLengths?.max() ?? path.cutLength
                    if raw {
                        // The send ends once the printer answered after the cut, so the piece is in already.
                        let pieces = try await escpos.pieces(atLeast: piecesBefore + 1)
                        path.bytes.append(escpos.record.bytesReceived - bytesBefore)
                        result.count(pieces[piecesBefore...], planned: ended.cutLengths, dpi: profile.dpi)
                    } else if let id = ended.printerJobID,
                              let received = try printer.receivedJobs().last(where: { $0.jobID == id }) {
                        path.bytes.append(received.documentSize)
                        result.ippFormat = received.documentFormat
                    }
                } else {
                    path.failures.append("\(ended.state): \(ended.lastError ?? "no error recorded")")
                }
                if raw { result.raw = path } else { result.ipp = path }
            }
        }
        return result
    }

    /// Counts the pieces a raw job cut and how many are exactly its planned
    /// lengths, to the dot, at the stated dpi: the raster page's height.
    private mutating func count(_ pieces: ArraySlice<EscPosPiece>, planned: [Int]?, dpi: Int) {
        let expected = (planned ?? []).map { Length(hundredthsOfMillimetre: $0).dots(at: dpi) }
        rawPieces += pieces.count
        rawPieceDots = pieces.last?.lengthInDots ?? rawPieceDots
        rawCutsExact += zip(pieces, expected).filter { $0.lengthInDots == $1 }.count
    }
}

/// The receipt the raw bench prints: the render bench's 30-item basket (the
/// built-in receipt's sample items repeated), so the figures of both benches
/// are for one receipt.
enum LongReceipt {
    static let items = RenderCase.longReceiptItems

    static func json() throws -> String {
        String(decoding: try RenderCase.named(RenderCase.longReceipt).json, as: UTF8.self)
    }
}
