public import PrintModel
public import Store

/// An operator's cancel, from the command line or any other way in: the job
/// is marked in the database, where the spooler sees it; a job already at a
/// printer is also cancelled there now, through the printer's channel, so
/// the paper stops even when no agent is running.
public struct JobCanceller: Sendable {
    public let store: KioskStore
    public let channels: PrinterChannels

    public init(store: KioskStore, channels: PrinterChannels = .standard(timeout: .seconds(5))) {
        self.store = store; self.channels = channels
    }

    /// What a cancel did.
    public enum Outcome: Sendable, Equatable {
        /// It had not reached a printer: it is canceled now.
        case canceled(PrintJob)
        /// It is on its way to a printer: the spooler stops it before sending it.
        case marked(PrintJob)
        /// The printer took the cancel; the spooler records the end when the printer reports it.
        case canceledAtPrinter(PrintJob, printerJobID: Int)
        /// Marked, but the printer did not take the cancel now; the spooler asks it again.
        case printerDidNotAnswer(PrintJob, reason: String)
    }

    public func cancel(_ id: JobID) async throws -> Outcome {
        let job = try await store.requestCancel(id)
        if job.state == .canceled { return .canceled(job) }
        guard let printer = job.printer, let printerJobID = job.printerJobID else { return .marked(job) }
        // Still saved: its pin holds for the cancel too.
        let saved = try? await store.findPrinter(printer.uri)
        let target = saved.flatMap { $0.id == printer.id ? ChannelTarget($0) : nil }
            ?? ChannelTarget(uri: printer.uri, name: printer.name)
        let channel = channels.channel(for: target)
        if let failure = await channel.cancel(PrinterTicket(printerJobID)) {
            return .printerDidNotAnswer(job, reason: failure)
        }
        return .canceledAtPrinter(job, printerJobID: printerJobID)
    }
}
