public import PrintModel
public import PrinterLanguages

/// One raw printer, talked to in its own command language over its link:
/// asked for its status, sent a job's bytes (and the job confirmed), its
/// cash drawer pulsed. What `IPP` is to an IPP printer, this is to a
/// socket, USB or serial one; the spooler's channel, `printers add` and
/// `printers check` all stand on it.
///
/// Every call opens its own link and closes it: a receipt printer on port
/// 9100 serves one connection at a time, and a link held open would lock
/// out the POS software beside the agent. No wait is open-ended, and none is
/// fixed regardless of the job: a write goes on while the printer takes
/// bytes, an answer is awaited `timeout` past the time the line needs to
/// carry what went before it, and an answer is read up to
/// `answerByteLimit` bytes and its deadline, whatever else the printer sends.
public struct RawPrinterSession: Sendable {
    public let uri: RawPrinterURI
    public let profile: RawProfile
    /// The printer's name in messages.
    public let name: String
    /// How long the printer may go without progress before it counts as
    /// stalled: to accept the connection, to take the next byte of a write,
    /// and to answer once the line has carried what was sent before the
    /// question. Never the time a whole job may take: that follows the
    /// printer's progress and the line's speed.
    public var timeout: Duration
    public var usbPrinters: USBPrinterDirectory

    /// The most bytes kept while waiting for one answer. An ESC/POS status is
    /// 4 bytes, ZPL's `~HS` three framed strings under 100, Epson's process
    /// ID 7: a printer that sends this much without answering is not
    /// answering, and nothing past it is read.
    public static let answerByteLimit = 4096

    public init(uri: RawPrinterURI, profile: RawProfile, name: String, timeout: Duration = .seconds(10),
                usbPrinters: USBPrinterDirectory = USBPrinterDirectory()) {
        self.uri = uri; self.profile = profile; self.name = name; self.timeout = timeout; self.usbPrinters = usbPrinters
    }

    var language: any PrinterCommandLanguage { profile.commandLanguage }

    /// The printer's status now (ESC/POS `DLE EOT 1..4`, ZPL `~HS`), or nil
    /// when its link only writes (a USB printer without a back channel).
    public func status() async throws(RawPrintError) -> RawPrinterStatus? {
        let link = try await open()
        defer { link.close() }
        return try await readStatus(on: link, after: .now)
    }

    /// Sends a job's bytes and confirms it: see `RawSendOutcome` for when a
    /// raw job counts as printed. With `processID` (Epson `GS ( H`, already
    /// in the bytes) the printer's own "finished" answer is awaited.
    public func send(_ bytes: [UInt8], processID: ProcessID? = nil) async -> RawSendOutcome {
        let link: AsyncPrinterLink
        do { link = try await open() } catch { return .notSent(error.description) }
        defer { link.close() }
        // Star's count of printed jobs, before this one's ETB moves it; nil when the language keeps none
        // or the printer did not answer (then the status after the job is all there is).
        var countBefore: Int?
        if language.keepsPrintedCount, let answer = try? await readStatusAnswer(on: link, after: .now) {
            countBefore = language.printedCount(in: answer)
        }
        let started = ContinuousClock.now
        do {
            try await link.write(bytes, stallWindow: timeout)
        } catch {
            let sent = error.bytesSent ?? 0
            if sent == 0, error.reason != .cancelled { return .notSent(error.description) }
            return .broken("The connection to \(name) broke after \(sent) of \(bytes.count) bytes: \(error)")
        }
        // The system takes bytes into its buffers (a pseudo-terminal 12 KB,
        // a socket far more) faster than a slow line carries them: no answer
        // can come before the line has carried the job.
        let carried = max(ContinuousClock.now, started + uri.lineTime(for: bytes.count))
        var notes: [String] = []
        if let processID {
            do {
                try await awaitProcessID(processID, on: link, after: carried)
                notes.append("process-id-\(processID)-confirmed")
            } catch {
                return .unconfirmed("\(name) took all \(bytes.count) bytes but did not say it finished printing "
                    + "(Epson process ID \(processID)): \(error)")
            }
        }
        let status: RawPrinterStatus?
        var confirmed = processID != nil
        do {
            if let countBefore {
                let counted = try await awaitPrintedCount(past: countBefore, on: link, after: carried)
                status = counted.status
                confirmed = counted.moved
                if counted.moved { notes.append("etb-confirmed") }
            } else {
                status = try await readStatus(on: link, after: max(ContinuousClock.now, carried))
            }
        } catch {
            return .unconfirmed("\(name) took all \(bytes.count) bytes but did not answer the status check after them: \(error)")
        }
        if let status {
            let stopping = status.reasons.filter(\.needsAttention)
            // Confirmed by its process ID or its ETB count, the job is done
            // whatever came after (the roll may have run out just after its
            // cut). Otherwise the bytes are in the printer but it stopped: the
            // rest may print once someone acts, or never.
            if !stopping.isEmpty, !confirmed {
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
        let link = try await open()
        defer { link.close() }
        let started = ContinuousClock.now
        do { try await link.write(bytes, stallWindow: timeout) } catch { throw .link(error) }
        let carried = max(ContinuousClock.now, started + uri.lineTime(for: bytes.count))
        return try await readStatus(on: link, after: carried)?.drawerOpen
    }

    /// Writes the language's identify signal (a beep) on a link of its own.
    /// - Returns: false when the language has none.
    public func identify() async throws(RawPrintError) -> Bool {
        guard let bytes = language.identifySignal else { return false }
        let link = try await open()
        defer { link.close() }
        do { try await link.write(bytes, stallWindow: timeout) } catch { throw .link(error) }
        return true
    }

    // MARK: - On an open link

    private func open() async throws(RawPrintError) -> AsyncPrinterLink {
        do { return try await AsyncPrinterLink.open(uri, deadline: .now + timeout, usbPrinters: usbPrinters) } catch {
            throw .link(error)
        }
    }

    /// Asks for the status and reads the answer, awaited `timeout` past
    /// `carried` (when the line has carried what went before the question).
    private func readStatus(on link: AsyncPrinterLink,
                            after carried: ContinuousClock.Instant) async throws(RawPrintError) -> RawPrinterStatus? {
        guard let answer = try await readStatusAnswer(on: link, after: carried) else { return nil }
        do { return try language.status(from: answer) } catch { throw .badAnswer(error.description) }
    }

    /// How often a printer that keeps a printed count is asked again while its job prints.
    static let countPollInterval = Duration.milliseconds(50)

    /// Asks the status until the printed count has moved past `before` (the
    /// job's end mark printed), the printer reports a stop with the count
    /// unmoved, or `timeout` past `carried` passes with neither (then the
    /// last status, unconfirmed). A printer working through a long job keeps
    /// answering, so the wait follows its progress as a write does.
    private func awaitPrintedCount(past before: Int, on link: AsyncPrinterLink, after carried: ContinuousClock.Instant)
        async throws(RawPrintError) -> (status: RawPrinterStatus?, moved: Bool) {
        let deadline = carried + timeout
        while true {
            guard let answer = try await readStatusAnswer(on: link, after: max(ContinuousClock.now, carried)) else {
                return (nil, false)
            }
            let status: RawPrinterStatus
            do { status = try language.status(from: answer) } catch { throw .badAnswer(error.description) }
            if let count = language.printedCount(in: answer), count != before { return (status, true) }
            if status.reasons.contains(where: \.needsAttention) || ContinuousClock.now >= deadline { return (status, false) }
            do { try await Task.sleep(for: Self.countPollInterval) } catch { return (status, false) }
        }
    }

    /// Writes the status request and reads one whole answer; nil when the link only writes.
    private func readStatusAnswer(on link: AsyncPrinterLink,
                                  after carried: ContinuousClock.Instant) async throws(RawPrintError) -> [UInt8]? {
        do { try await link.write(language.statusRequest, stallWindow: timeout) } catch { throw .link(error) }
        let language = self.language
        let answer: AnswerRead
        do {
            answer = try await link.readAnswer(limit: Self.answerByteLimit, deadline: carried + timeout, stallWindow: timeout) {
                language.statusAnswerLength(in: $0) != nil
            }
        } catch {
            if case .readNotSupported = error.reason { return nil }
            throw .link(error)
        }
        switch answer.end {
        case .complete:
            let length = language.statusAnswerLength(in: answer.bytes) ?? answer.bytes.count
            return Array(answer.bytes.prefix(length))
        case .limitReached:
            throw .badAnswer(overlong(answer, "the status request"))
        case .deadlinePassed:
            throw .noAnswer("\(name) did not answer the status request within \(timeout) (\(answer.bytes.count) bytes came).")
        }
    }

    /// Reads until the printer sends back `id`, which Epson printers do once
    /// the job before it is printed and cut: awaited `timeout` past `carried`.
    private func awaitProcessID(_ id: ProcessID, on link: AsyncPrinterLink,
                                after carried: ContinuousClock.Instant) async throws(RawPrintError) {
        let answer: AnswerRead
        do {
            answer = try await link.readAnswer(limit: Self.answerByteLimit, deadline: carried + timeout, stallWindow: timeout) {
                // What came is at most `answerByteLimit` bytes: scanned whole each time, it needs no state across reads.
                var scanner = EscPosResponseScanner()
                return scanner.feed($0).contains(.processID(id))
            }
        } catch { throw .link(error) }
        switch answer.end {
        case .complete: return
        case .limitReached: throw .badAnswer(overlong(answer, "its process ID"))
        case .deadlinePassed: throw .noAnswer("no answer within \(timeout)")
        }
    }

    /// Why an answer that filled `answerByteLimit` is not read further.
    private func overlong(_ answer: AnswerRead, _ question: String) -> String {
        "\(name) sent \(answer.bytes.count) bytes after \(question) and no \(profile.language) answer among them, so "
            + "KioskPrint stopped reading. Something other than the printer may be answering at \(uri)."
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
