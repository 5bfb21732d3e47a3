public import PrintModel
public import PrinterLanguages
public import RawConnections

/// One raw printer, talked to in its own command language over its link:
/// asked for its status, sent a job's bytes (and the job confirmed), its
/// cash drawer pulsed. What `IPP` is to an IPP printer, this is to a
/// socket, USB or serial one; the spooler's channel, `printers add` and
/// `printers check` all stand on it.
///
/// Every call opens its own link and closes it: a receipt printer on port
/// 9100 serves one connection at a time, and a link held open would lock
/// out the POS software beside the agent. Every read and write has a
/// deadline, so a printer that stops reading never hangs the caller.
public struct RawPrinterSession: Sendable {
    public let uri: RawPrinterURI
    public let profile: RawProfile
    /// The printer's name in messages.
    public let name: String
    /// The deadline of each call.
    public var timeout: Duration
    public var usbPrinters: USBPrinterDirectory

    public init(uri: RawPrinterURI, profile: RawProfile, name: String, timeout: Duration = .seconds(10),
                usbPrinters: USBPrinterDirectory = USBPrinterDirectory()) {
        self.uri = uri; self.profile = profile; self.name = name; self.timeout = timeout; self.usbPrinters = usbPrinters
    }

    var language: any PrinterCommandLanguage { profile.commandLanguage }

    /// The printer's status now (ESC/POS `DLE EOT 1..4`, ZPL `~HS`), or nil
    /// when its link only writes (a USB printer without a back channel).
    public func status() async throws(RawPrintError) -> RawPrinterStatus? {
        let deadline = ContinuousClock.now + timeout
        let link = try await open(deadline)
        defer { link.close() }
        return try await readStatus(on: link, deadline: deadline)
    }

    /// Sends a job's bytes and confirms it: see `RawSendOutcome` for when a
    /// raw job counts as printed. With `processID` (Epson `GS ( H`, already
    /// in the bytes) the printer's own "finished" answer is awaited.
    public func send(_ bytes: [UInt8], processID: ProcessID? = nil) async -> RawSendOutcome {
        let deadline = ContinuousClock.now + timeout
        let link: AsyncPrinterLink
        do { link = try await open(deadline) } catch { return .notSent(error.description) }
        defer { link.close() }
        do {
            try await link.write(bytes, deadline: deadline)
        } catch {
            let sent = error.bytesSent ?? 0
            if sent == 0, error.reason != .cancelled { return .notSent(error.description) }
            return .broken("The connection to \(name) broke after \(sent) of \(bytes.count) bytes: \(error)")
        }
        var notes: [String] = []
        if let processID {
            do {
                try await awaitProcessID(processID, on: link, deadline: deadline)
                notes.append("process-id-\(processID)-confirmed")
            } catch {
                return .unconfirmed("\(name) took all \(bytes.count) bytes but did not say it finished printing "
                    + "(Epson process ID \(processID)): \(error)")
            }
        }
        let status: RawPrinterStatus?
        do { status = try await readStatus(on: link, deadline: deadline) } catch {
            return .unconfirmed("\(name) took all \(bytes.count) bytes but did not answer the status check after them: \(error)")
        }
        if let status {
            let stopping = status.reasons.filter(\.needsAttention)
            // Confirmed by its process ID, the job is done whatever came after
            // (the roll may have run out just after its cut). Otherwise the
            // bytes are in the printer but it stopped: the rest may print once
            // someone acts, or never.
            if !stopping.isEmpty, processID == nil {
                return .unconfirmed("\(name) took all \(bytes.count) bytes, then reported "
                    + stopping.map(\.keyword).joined(separator: ", ") + ".")
            }
            notes += status.reasons.map(\.keyword)
        }
        return .printed(notes: notes)
    }

    /// Pulses the drawer output; returns the drawer switch read afterwards, if the printer reports it.
    public func kickDrawer(_ kick: DrawerKick) async throws(RawPrintError) -> Bool? {
        let bytes: [UInt8]
        do { bytes = try language.drawerKick(kick) } catch { throw .refused(error.description) }
        let deadline = ContinuousClock.now + timeout
        let link = try await open(deadline)
        defer { link.close() }
        do { try await link.write(bytes, deadline: deadline) } catch { throw .link(error) }
        return try await readStatus(on: link, deadline: deadline)?.drawerOpen
    }

    // MARK: - On an open link

    private func open(_ deadline: ContinuousClock.Instant) async throws(RawPrintError) -> AsyncPrinterLink {
        do { return try await AsyncPrinterLink.open(uri, deadline: deadline, usbPrinters: usbPrinters) } catch {
            throw .link(error)
        }
    }

    private func readStatus(on link: AsyncPrinterLink, deadline: ContinuousClock.Instant) async throws(RawPrintError) -> RawPrinterStatus? {
        do { try await link.write(language.statusRequest, deadline: deadline) } catch { throw .link(error) }
        var received: [UInt8] = []
        while true {
            let chunk: [UInt8]
            do { chunk = try await link.read(atMost: 256, deadline: deadline) } catch {
                if case .readNotSupported = error.reason { return nil }
                throw .link(error)
            }
            received += chunk
            if let length = language.statusAnswerLength(in: received) {
                do { return try language.status(from: Array(received.prefix(length))) } catch { throw .badAnswer(error.description) }
            }
            if chunk.isEmpty, ContinuousClock.now >= deadline {
                throw .noAnswer("\(name) did not answer the status request within \(timeout) (\(received.count) bytes came).")
            }
        }
    }

    private func awaitProcessID(_ id: ProcessID, on link: AsyncPrinterLink,
                                deadline: ContinuousClock.Instant) async throws(RawPrintError) {
        var scanner = EscPosResponseScanner()
        while true {
            let chunk: [UInt8]
            do { chunk = try await link.read(atMost: 64, deadline: deadline) } catch { throw .link(error) }
            for case .processID(let answered) in scanner.feed(chunk) where answered == id { return }
            if chunk.isEmpty, ContinuousClock.now >= deadline {
                throw .noAnswer("no answer within \(timeout)")
            }
        }
    }
}

/// What sending a raw job came to. A raw printer has no job id, so KioskPrint
/// counts a raw job **printed** when every byte was written and the printer
/// reports no stopping error afterwards, or, where the model has it (Epson
/// `GS ( H`), when the printer says it finished the job, last cut included.
public enum RawSendOutcome: Hashable, Sendable {
    case printed(notes: [String])
    /// Not a byte went out (no connection): sending again is safe.
    case notSent(String)
    /// The link broke with part of the job sent: it may be partly on paper.
    case broken(String)
    /// Every byte went out but the printer did not confirm, or stopped after:
    /// whether it is on paper is unknown.
    case unconfirmed(String)
}

/// Why a raw printer could not be asked or told something.
public enum RawPrintError: Error, Sendable, CustomStringConvertible {
    case link(LinkError)
    case noAnswer(String)
    case badAnswer(String)
    case refused(String)

    public var description: String {
        switch self {
        case .link(let error): error.description
        case .noAnswer(let text): text + " Check that it is switched on, online, and speaks the language it was saved with."
        case .badAnswer(let text): text + " Check that the printer speaks the language it was saved with (printers list)."
        case .refused(let text): text
        }
    }
}
