import Testing
import PrintModel
import PrinterLanguages

/// What a virtual raw printer reads in a host's stream: asks told from print
/// data command by command, wherever a chunk ends; and the answers, read back
/// by the parsers the spooler uses on real printers.
@Suite struct HostStreamTests {
    /// Feeds `bytes` in chunks of `size`, and returns the pieces, print data merged.
    static func split(_ bytes: [UInt8], chunk size: Int) -> (data: [UInt8], asks: [EscPosHostAsk]) {
        var stream = EscPosHostStream()
        var data: [UInt8] = [], asks: [EscPosHostAsk] = []
        var offset = 0
        while offset < bytes.count {
            for piece in stream.feed(bytes[offset..<min(bytes.count, offset + size)]) {
                switch piece {
                case .data(let part): data += part
                case .ask(let ask): asks.append(ask)
                }
            }
            offset += size
        }
        data += stream.finish()
        return (data, asks)
    }

    @Test(arguments: [1, 2, 3, 7, 4096])
    func asksAreTakenOutOfTheStreamWhereverAChunkEnds(chunk: Int) {
        let text = Array("Total 12.50\n".utf8)
        let raster: [UInt8] = [0x1D, 0x76, 0x30, 0x00, 0x02, 0x00, 0x02, 0x00, 0x10, 0x04, 0x01, 0xFF]
        let cut: [UInt8] = [0x1D, 0x56, 0x42, 0x00]
        let bytes: [UInt8] = [0x1B, 0x40] + [0x10, 0x04, 0x01] + text + [0x1D, 0x72, 0x01] + raster
            + [0x1D, 0x28, 0x48, 0x06, 0x00, 0x30, 0x30, 0x30, 0x30, 0x34, 0x32] + cut + [0x1D, 0x61, 0x0F]
        let (data, asks) = Self.split(bytes, chunk: chunk)
        #expect(asks == [.realTimeStatus(1), .transmitStatus(1), .processID(Array("0042".utf8)), .automaticStatus(15)])
        #expect(data == [0x1B, 0x40] + text + raster + cut, "the 10 04 01 inside the raster image's data is data")
    }

    @Test func anImageWithAsksBytesInItsColumnsIsLeftWhole() {
        // ESC * 33 (24-dot double density): 3 bytes a column; the columns spell DLE EOT 4 and GS r 1.
        let image: [UInt8] = [0x1B, 0x2A, 33, 0x02, 0x00, 0x10, 0x04, 0x04, 0x1D, 0x72, 0x01]
        let (data, asks) = Self.split(image + [0x0A], chunk: 5)
        #expect(asks.isEmpty)
        #expect(data == image + [0x0A])
    }

    @Test func aCommandCutOffByTheEndIsKeptAsData() {
        var stream = EscPosHostStream()
        #expect(stream.feed([0x41, 0x1D, 0x76, 0x30, 0x00, 0x10]) == [.data([0x41])])
        #expect(stream.heldBytes == 5)
        #expect(stream.finish() == [0x1D, 0x76, 0x30, 0x00, 0x10])
    }

    /// The four DLE EOT answers, read back by the parser the spooler uses on
    /// Epson printers, give the status they were made from.
    @Test(arguments: [
        RawPrinterStatus(),
        RawPrinterStatus(paperEnd: true),
        RawPrinterStatus(paperNearEnd: true),
        RawPrinterStatus(offline: true, coverOpen: true),
        RawPrinterStatus(cutterError: true),
        RawPrinterStatus(drawerOpen: true),
    ])
    func realTimeAnswersReadBackAsTheStatusTheyCameFrom(status: RawPrinterStatus) throws {
        let answers = EscPosStatusAnswers(status: status)
        let bytes = (1...4).compactMap { answers.realTimeStatus(UInt8($0)) }
        #expect(bytes.allSatisfy(EscPosRealTimeStatus.isStatusByte), "0xx1xx10, as Epson fixes the bits")
        let read = EscPosRealTimeStatus(printer: bytes[0], offlineCause: bytes[1], errorCause: bytes[2], paperSensor: bytes[3])
            .status(drawerOpenLevel: .high)
        #expect(read.reasons == status.reasons)
        #expect(read.drawerOpen == (status.drawerOpen ?? false))
    }

    @Test func otherAsksAnswerAsEpsonDocuments() {
        let empty = EscPosStatusAnswers(status: RawPrinterStatus(paperEnd: true, drawerOpen: true))
        #expect(empty.answer(.transmitStatus(1)) == [0x0F], "GS r 1: near end and end, bits 0-3")
        #expect(empty.answer(.transmitStatus(50)) == [0x01], "GS r 50: drawer pin high")
        #expect(empty.answer(.automaticStatus(0)) == [], "GS a 0 turns ASB off: no answer")
        #expect(empty.answer(.automaticStatus(0x0F)) == [0x1C, 0x00, 0x0F, 0x00], "ASB: drawer, offline; paper bits")
        #expect(empty.answer(.processID(Array("0007".utf8))) == [0x37, 0x22, 0x30, 0x30, 0x30, 0x37, 0x00])
        #expect(empty.answer(.printerID(67)) == [0x5F] + Array("KioskPrint virtual printer".utf8) + [0x00])
        #expect(empty.answer(.recoveryRequest(1)).isEmpty)
    }

    @Test func zplHostStatusIsFoundAndItsAnswerParses() throws {
        var stream = ZPLHostStream()
        let label = Array("^XA^FO10,10^FDA~B^FS^XZ".utf8)
        var pieces = stream.feed(Array("~H".utf8))
        #expect(pieces.isEmpty, "held until it can be told")
        pieces += stream.feed(Array("S".utf8) + label + Array("~hi".utf8))
        #expect(pieces == [.ask(.hostStatus), .data(label), .ask(.hostIdentification)])

        let status = RawPrinterStatus(coverOpen: true, paperEnd: true, ribbonOut: true)
        let read = try ZPLHostStatus(answer: ZPLStatusAnswers(status: status).answer(.hostStatus))
        #expect(read.status.reasons == status.reasons)
        let identification = ZPLStatusAnswers(status: status, model: "ZD420-203dpi", dotsPerMillimetre: 8).answer(.hostIdentification)
        #expect(String(decoding: identification, as: UTF8.self) == "\u{02}ZD420-203DPI,V1.0,8,8192KB\u{03}\r\n")
    }

    @Test func ippReasonsBecomeTheRawStatusAPrinterWouldReport() {
        let reasons = [StateReason(keyword: "media-empty", severity: .error), StateReason(keyword: "media-low", severity: .warning)]
        let status = RawPrinterStatus(state: .stopped, reasons: reasons, drawerOpen: nil)
        #expect(status.paperEnd && status.paperNearEnd && !status.offline)
        #expect(RawPrinterStatus(state: .stopped, reasons: [], drawerOpen: nil).offline, "stopped for no named reason: offline")
        #expect(RawPrinterStatus(state: .idle, reasons: [], drawerOpen: true).reasons.isEmpty)
    }
}
