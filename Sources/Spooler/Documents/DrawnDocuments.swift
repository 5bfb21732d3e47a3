public import PrintModel
import Store
import Synchronization

/// Jobs drawn when they were taken in, waiting for the spooler of the same
/// process to send them, so that a job is drawn once, not once to check it
/// and again to send it. A drawing serves only the printer it was drawn for
/// with the capabilities it had then; a job that goes elsewhere (a backup, a
/// changed roll, a reprint with its banner) is drawn again. Nothing here is
/// durable: after a restart, or for a job queued by another process (the
/// command line beside a running agent), the spooler draws at send time.
///
/// The intake draws while the job's insert commits, so the spooler may claim
/// the job before its drawing is done. The intake therefore announces the
/// drawing inside the insert's transaction (`expect`), before the job can be
/// seen, and a spooler that comes early waits for it (`take`) rather than
/// drawing a second time.
public final class DrawnDocuments: Sendable {
    /// Bounds on what waits here: a queue that backs up (a printer away for
    /// an hour) keeps its newest drawings and draws the rest at send time.
    public struct Limits: Sendable {
        public var totalBytes: Int
        /// A larger drawing (a long report) is not kept: drawn again when sent.
        public var documentBytes: Int
        public var documents: Int

        public init(totalBytes: Int = 32 << 20, documentBytes: Int = 4 << 20, documents: Int = 512) {
            self.totalBytes = totalBytes; self.documentBytes = documentBytes; self.documents = documents
        }
    }

    private struct Slot {
        var printerID: Int64
        var capabilities: PrinterCapabilities
        /// nil while the intake is still drawing.
        var document: PreparedDocument?
        var bytes = 0
        /// Spoolers that came before the drawing was done.
        var waiting: [CheckedContinuation<PreparedDocument?, Never>] = []
    }

    private struct Shelf {
        var slots: [JobID: Slot] = [:]
        /// Oldest first, for eviction.
        var order: [JobID] = []
        var bytes = 0
    }

    private let shelf = Mutex(Shelf())
    public let limits: Limits

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Says that job `id` is being drawn for `printer`: a spooler that takes
    /// the job before `deliver` waits for the drawing.
    public func expect(job id: JobID, printer: SavedPrinter) {
        let stale = shelf.withLock { shelf -> [CheckedContinuation<PreparedDocument?, Never>] in
            let replaced = shelf.slots[id]?.waiting ?? []
            if let old = shelf.slots[id] { shelf.bytes -= old.bytes } else { shelf.order.append(id) }
            shelf.slots[id] = Slot(printerID: printer.id, capabilities: printer.capabilities)
            return replaced + evict(&shelf)
        }
        for waiter in stale { waiter.resume(returning: nil) }
    }

    /// The drawing of job `id` (nil: it could not be drawn, or is too large
    /// to keep): handed to a spooler already waiting, or kept for it.
    public func deliver(_ document: PreparedDocument?, job id: JobID) {
        let bytes = document.map(Self.size(of:)) ?? 0
        let kept = bytes <= limits.documentBytes ? document : nil
        let (waiting, dropped) = shelf.withLock { shelf -> ([CheckedContinuation<PreparedDocument?, Never>],
                                                           [CheckedContinuation<PreparedDocument?, Never>]) in
            guard var slot = shelf.slots[id] else { return ([], []) }
            let waiting = slot.waiting
            if !waiting.isEmpty || kept == nil {
                // Whoever waited takes it now; nothing is left to keep.
                shelf.slots[id] = nil
                shelf.order.removeAll { $0 == id }
                return (waiting, [])
            }
            slot.document = kept
            slot.bytes = bytes
            shelf.slots[id] = slot
            shelf.bytes += bytes
            return ([], evict(&shelf))
        }
        for waiter in waiting { waiter.resume(returning: kept) }
        for waiter in dropped { waiter.resume(returning: nil) }
    }

    /// The drawing of job `id` when it was drawn for `printer` as that
    /// printer is saved now; nil otherwise (draw it). Waits while the intake
    /// is still drawing it. Either way the drawing is let go.
    public func take(job id: JobID, for printer: SavedPrinter) async -> PreparedDocument? {
        enum Found { case none, ready(PreparedDocument?), pending }
        let matches = { (slot: Slot) in slot.printerID == printer.id && slot.capabilities == printer.capabilities }
        let found = shelf.withLock { shelf -> Found in
            guard let slot = shelf.slots[id] else { return .none }
            guard matches(slot) else {
                if slot.document != nil { remove(id, from: &shelf) }
                return .none
            }
            guard let document = slot.document else { return .pending }
            remove(id, from: &shelf)
            return .ready(document)
        }
        switch found {
        case .none: return nil
        case .ready(let document): return document
        case .pending:
            return await withCheckedContinuation { continuation in
                let now: Bool = shelf.withLock { shelf in
                    guard var slot = shelf.slots[id], matches(slot) else { return true }
                    if let document = slot.document {
                        remove(id, from: &shelf)
                        continuation.resume(returning: document)
                        return false
                    }
                    slot.waiting.append(continuation)
                    shelf.slots[id] = slot
                    return false
                }
                if now { continuation.resume(returning: nil) }
            }
        }
    }

    /// For tests (it reads the private shelf): spoolers parked on a drawing still being made.
    package var waitingSpoolers: Int { shelf.withLock { $0.slots.values.reduce(0) { $0 + $1.waiting.count } } }

    /// How many drawings wait (or are being drawn), and their bytes.
    public var count: (documents: Int, bytes: Int) { shelf.withLock { ($0.slots.count, $0.bytes) } }

    private func remove(_ id: JobID, from shelf: inout Shelf) {
        guard let slot = shelf.slots.removeValue(forKey: id) else { return }
        shelf.bytes -= slot.bytes
        shelf.order.removeAll { $0 == id }
    }

    /// Drops the oldest slots beyond the limits; returns their waiters, to
    /// be told there is nothing (they draw themselves).
    private func evict(_ shelf: inout Shelf) -> [CheckedContinuation<PreparedDocument?, Never>] {
        var released: [CheckedContinuation<PreparedDocument?, Never>] = []
        while shelf.bytes > limits.totalBytes || shelf.slots.count > limits.documents, !shelf.order.isEmpty {
            let oldest = shelf.order.removeFirst()
            if let dropped = shelf.slots.removeValue(forKey: oldest) {
                shelf.bytes -= dropped.bytes
                released += dropped.waiting
            }
        }
        return released
    }

    private static func size(of document: PreparedDocument) -> Int {
        document.data.count + (document.rawPieces ?? []).reduce(0) { $0 + $1.rows.count }
    }
}
