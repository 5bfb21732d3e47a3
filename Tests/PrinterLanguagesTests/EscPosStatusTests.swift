import Testing
import PrintModel
import PrinterLanguages

/// The answers to DLE EOT 1 to 4, bit by bit as Epson's reference documents
/// them, and what each means to the spooler.
@Suite struct EscPosStatusTests {
    /// Every answer of a ready printer: bits 1 and 4 set (0001 0010).
    static let ready: UInt8 = 0x12
    static let language = EscPosLanguage(profile: ModelCatalog.entries.first { $0.name == "TM-T20III" }!.profile)

    static func status(_ printer: UInt8 = ready, _ offline: UInt8 = ready, _ error: UInt8 = ready,
                       _ paper: UInt8 = ready) throws -> RawPrinterStatus {
        try language.status(from: [printer, offline, error, paper])
    }

    static func keywords(_ status: RawPrinterStatus) -> [String] { status.reasons.map(\.keyword) }

    @Test func aReadyPrinter() throws {
        let status = try Self.status()
        #expect(status == RawPrinterStatus(drawerOpen: false))
        #expect(status.reasons.isEmpty)
        #expect(status.printerState == .idle)
    }

    @Test("Each documented bit, and the reasons it gives", arguments: [
        // DLE EOT 1 bit 3: offline, with no cause given.
        (0x1A, 0x12, 0x12, 0x12, ["offline"], PrinterState.stopped),
        // DLE EOT 2 bit 2: cover open (the printer is offline too, explained by the cover).
        (0x1A, 0x16, 0x12, 0x12, ["cover-open"], .stopped),
        // DLE EOT 2 bit 5: printing stopped at a paper end.
        (0x1A, 0x32, 0x12, 0x12, ["media-empty"], .stopped),
        // DLE EOT 4 bits 5 and 6: the roll end sensor sees no paper (near end too: only the end is reported).
        (0x1A, 0x32, 0x12, 0x7E, ["media-empty"], .stopped),
        // DLE EOT 4 bits 2 and 3: near end, a warning; printing goes on.
        (0x12, 0x12, 0x12, 0x1E, ["media-low"], .idle),
        // DLE EOT 3 bit 3: autocutter error, reported as a jam.
        (0x1A, 0x52, 0x1A, 0x12, ["media-jam"], .stopped),
        // DLE EOT 3 bit 2: a recoverable error.
        (0x1A, 0x52, 0x16, 0x12, ["other", "offline"], .stopped),
        // DLE EOT 3 bit 5: unrecoverable.
        (0x1A, 0x52, 0x32, 0x12, ["other", "offline"], .stopped),
        // DLE EOT 3 bit 6: clears by itself (hot head): a warning.
        (0x12, 0x12, 0x52, 0x12, ["other"], .idle),
    ])
    func bit(printer: Int, offline: Int, error: Int, paper: Int, expected: [String], state: PrinterState) throws {
        let status = try Self.status(UInt8(printer), UInt8(offline), UInt8(error), UInt8(paper))
        #expect(Self.keywords(status) == expected)
        #expect(status.printerState == state)
    }

    @Test func severities() throws {
        let nearEnd = try Self.status(Self.ready, Self.ready, Self.ready, 0x1E)
        #expect(nearEnd.reasons == [StateReason(keyword: "media-low", severity: .warning)])
        #expect(!nearEnd.reasons.contains { $0.needsAttention })
        let paperOut = try Self.status(0x1A, 0x32, Self.ready, 0x7E)
        #expect(paperOut.reasons == [StateReason(keyword: "media-empty", severity: .error)])
        #expect(paperOut.reasons.allSatisfy { $0.needsAttention })
        #expect(paperOut.paperEnd && paperOut.paperNearEnd && paperOut.offline)
    }

    @Test func theDrawerIsPin3AtTheLevelGiven() throws {
        #expect(try Self.status(0x16).drawerOpen == true, "DLE EOT 1 bit 2: pin 3 high")
        #expect(try Self.status(0x12).drawerOpen == false)
        let lowMeansOpen = EscPosLanguage(profile: Self.language.profile, drawerOpenLevel: .low)
        #expect(try lowMeansOpen.status(from: [0x16, 0x12, 0x12, 0x12]).drawerOpen == false)
        #expect(try lowMeansOpen.status(from: [0x12, 0x12, 0x12, 0x12]).drawerOpen == true)
        #expect(try Self.status(0x16).reasons.isEmpty, "an open drawer stops nothing")
    }

    @Test func theDecodedBitsByName() {
        let answer = EscPosRealTimeStatus(printer: 0x7E, offlineCause: 0x7E, errorCause: 0x7E, paperSensor: 0x7E)
        #expect(answer.drawerPinHigh && answer.offline && answer.waitingForRecovery && answer.feedButtonPressed)
        #expect(answer.coverOpen && answer.feedingByButton && answer.stoppedAtPaperEnd && answer.errorOccurred)
        #expect(answer.recoverableError && answer.cutterError && answer.unrecoverableError && answer.autoRecoverableError)
        #expect(answer.paperNearEnd && answer.paperEnd)
        let clear = EscPosRealTimeStatus(printer: 0x12, offlineCause: 0x12, errorCause: 0x12, paperSensor: 0x12)
        #expect(!clear.drawerPinHigh && !clear.offline && !clear.coverOpen && !clear.cutterError && !clear.paperEnd)
        #expect(EscPosRealTimeStatus.isStatusByte(0x12) && EscPosRealTimeStatus.isStatusByte(0x7E))
        #expect(!EscPosRealTimeStatus.isStatusByte(0x00) && !EscPosRealTimeStatus.isStatusByte(0x37)
                && !EscPosRealTimeStatus.isStatusByte(0x92) && !EscPosRealTimeStatus.isStatusByte(0x10))
    }

    @Test func anAnswerThatIsNotFourStatusBytesIsRefused() {
        let error = #expect(throws: StatusAnswerError.self) { try Self.language.status(from: [0x12, 0x12, 0x00]) }
        #expect(error?.description.contains("expected the 4 one-byte answers to DLE EOT 1 to 4, found 2") == true)
        #expect(error?.description.contains("received: 12 12 00") == true)
        #expect(throws: StatusAnswerError.self) { try Self.language.status(from: []) }
    }

    @Test func theAnswerIsCompleteAtTheFourthStatusByteWhateverComesBetween() throws {
        #expect(Self.language.statusAnswerLength(in: [0x12, 0x12, 0x12]) == nil)
        #expect(Self.language.statusAnswerLength(in: [0x12, 0x12, 0x12, 0x1E, 0x12]) == 4)
        // A process-ID answer (37 22 "0001" 00) arriving between the status bytes.
        let mixed: [UInt8] = [0x1A, 0x37, 0x22, 0x30, 0x30, 0x30, 0x31, 0x00, 0x32, 0x12, 0x72]
        #expect(Self.language.statusAnswerLength(in: mixed) == mixed.count)
        #expect(Self.keywords(try Self.language.status(from: mixed)) == ["media-empty"])
        // Half a process-ID answer holds the count back until the rest comes.
        #expect(Self.language.statusAnswerLength(in: [0x12, 0x37, 0x22, 0x30]) == nil)
    }

    @Test func theScannerSeparatesEveryKindOfMessage() throws {
        var scanner = EscPosResponseScanner()
        // An ASB message (first byte 0xx1xx00) in two parts, a process ID split across reads, stray bytes.
        #expect(scanner.feed([0x12, 0x10, 0x00]) == [.realTimeStatus(0x12)])
        #expect(scanner.heldBack == [0x10, 0x00])
        #expect(scanner.feed([0x0F, 0x00, 0x37, 0x22, 0x39]) == [.automaticStatus([0x10, 0x00, 0x0F, 0x00])])
        let id = try #require(ProcessID("9876"))
        #expect(scanner.feed([0x38, 0x37, 0x36, 0x00, 0x11, 0x37, 0x41]) == [.processID(id), .unknown(0x11), .unknown(0x37), .unknown(0x41)])
        #expect(scanner.heldBack.isEmpty)
        #expect(EscPosResponse.processID(id).length == 7 && EscPosResponse.automaticStatus([]).length == 4)
    }
}
