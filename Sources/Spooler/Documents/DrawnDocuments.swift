public import PrintModel
public import Store
import Synchronization

/// Jobs drawn when they were taken in, waiting for the spooler of the same
/// process to send them, so that a job is drawn once, not once to check it
/// and again to send it. A drawing serves only the printer it was drawn for
/// with the capabilities it had then; a job that goes elsewhere (a backup, a
/// changed roll, a reprint with its banner) is drawn again. Nothing here is
/// durable: after a restart, or for a job queued by another process (the
/// command line beside a running agent), the spooler draws at send time as
/// before.
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

    private struct Drawing {
        var document: PreparedDocument
        var printerID: Int64
        var capabilities: PrinterCapabilities
        var bytes: Int
    }

    private struct Shelf {
        var drawings: [JobID: Drawing] = [:]
        /// Oldest first, for eviction.
        var order: [JobID] = []
        var bytes = 0
    }

    private let shelf = Mutex(Shelf())
    public let limits: Limits

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Keeps `document`, drawn for `printer`, for job `id`.
    public func keep(_ document: PreparedDocument, job id: JobID, printer: SavedPrinter) {
        let bytes = Self.size(of: document)
        guard bytes <= limits.documentBytes else { return }
        shelf.withLock { shelf in
            shelf.drawings[id] = Drawing(document: document, printerID: printer.id, capabilities: printer.capabilities,
                                         bytes: bytes)
            shelf.order.append(id)
            shelf.bytes += bytes
            while shelf.bytes > limits.totalBytes || shelf.drawings.count > limits.documents, !shelf.order.isEmpty {
                let oldest = shelf.order.removeFirst()
                if let dropped = shelf.drawings.removeValue(forKey: oldest) { shelf.bytes -= dropped.bytes }
            }
        }
    }

    /// The drawing of job `id` when it was drawn for `printer` as that
    /// printer is saved now; nil otherwise. Either way the drawing is let go.
    public func take(job id: JobID, for printer: SavedPrinter) -> PreparedDocument? {
        shelf.withLock { shelf in
            guard let drawing = shelf.drawings.removeValue(forKey: id) else { return nil }
            shelf.bytes -= drawing.bytes
            shelf.order.removeAll { $0 == id }
            guard drawing.printerID == printer.id, drawing.capabilities == printer.capabilities else { return nil }
            return drawing.document
        }
    }

    /// How many drawings wait, and their bytes.
    public var count: (documents: Int, bytes: Int) { shelf.withLock { ($0.drawings.count, $0.bytes) } }

    private static func size(of document: PreparedDocument) -> Int {
        document.data.count + (document.rawPieces ?? []).reduce(0) { $0 + $1.rows.count }
    }
}
