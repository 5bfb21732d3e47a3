@testable import Simulator
import Testing

/// What reaches the paper: raster, feeds and cuts, against streams written
/// from Epson's ESC/POS reference.
@Suite("ESC/POS paper", .timeLimit(.minutes(1)))
struct EscPosPaperTests {
    @Test("A 16x4 GS v 0 raster decodes dot for dot, at the left of the printable width, with its partial cut")
    func rasterPieceDotForDot() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 32))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.initialize + EscPos.raster(widthBytes: 2, SampleImage.bytes) + EscPos.feedAndCut(66, 0))

        let pieces = try await printer.pieces(atLeast: 1)
        let piece = try #require(pieces.first)
        #expect(piece.bitmap.rowStrings == SampleImage.rows.map { $0 + String(repeating: ".", count: 16) })
        #expect(piece.lengthInDots == 4)
        #expect(piece.cut == EscPosCut(kind: .partial, mode: 66, fedToCutPosition: true, extraFeedDots: 0))
        let record = printer.record
        #expect(record.initializations == 1)
        #expect(record.commands == ["ESC @", "GS v 0 0", "GS V 66 0"])
        #expect(record.problems.isEmpty)
        #expect(record.bytesReceived == 2 + 8 + 8 + 4)
    }

    @Test("GS V 0/48 cut full and 1/49 partial where the paper is; each cut ends a piece", arguments: [
        (UInt8(0), EscPosCut.Kind.full), (48, .full), (1, .partial), (49, .partial),
    ])
    func cutKinds(mode: UInt8, kind: EscPosCut.Kind) async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 16))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.raster(widthBytes: 2, SampleImage.bytes) + EscPos.cut(mode)
                        + EscPos.raster(widthBytes: 2, Array(SampleImage.bytes.prefix(2))) + EscPos.cut(mode))

        let pieces = try await printer.pieces(atLeast: 2)
        #expect(pieces.map(\.bitmap.rowStrings) == [SampleImage.rows, [SampleImage.rows[0]]])
        #expect(pieces.map(\.cut) == [EscPosCut(kind: kind, mode: mode, fedToCutPosition: false, extraFeedDots: 0),
                                      EscPosCut(kind: kind, mode: mode, fedToCutPosition: false, extraFeedDots: 0)])
        #expect(printer.record.uncut.lengthInDots == 0)
    }

    @Test("Feeds add length: ESC J in motion units, ESC d and LF in lines, GS V 65 n after the cut position")
    func feedsAddLength() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 16))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.raster(widthBytes: 2, SampleImage.bytes)  // 4 rows
                        + EscPos.feed(units: 30)                          // 30 dots: one unit is one dot here
                        + EscPos.lineSpacing(24) + EscPos.feed(lines: 2)  // 48
                        + EscPos.lineFeed                                 // 24
                        + EscPos.feedAndCut(65, 10))                      // 10, then a full cut

        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.lengthInDots == 4 + 30 + 48 + 24 + 10)
        #expect(piece.cut == EscPosCut(kind: .full, mode: 65, fedToCutPosition: true, extraFeedDots: 10))
        #expect(Array(piece.bitmap.rowStrings.prefix(4)) == SampleImage.rows)
        #expect(piece.bitmap.inkDots == SampleImage.bytes.reduce(0) { $0 + $1.nonzeroBitCount })
    }

    @Test("Motion units count at the head's pitch: 1/360 in units on a 180 dpi head are half dots; GS P changes them")
    func motionUnits() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 512, dotsPerInch: 180,
                                                                      verticalMotionUnitsPerInch: 360))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.feed(units: 60) + EscPos.cut(0)            // 60/360 in = 30 dots
                        + [0x1D, 0x50, 180, 180] + EscPos.feed(units: 60) + EscPos.cut(0)   // GS P 180 180: 60 dots
                        + EscPos.initialize + EscPos.lineFeed + EscPos.cut(0))             // ESC @: 1/6 in line = 30 dots
        let pieces = try await printer.pieces(atLeast: 3)
        #expect(pieces.map(\.lengthInDots) == [30, 60, 30])
    }

    @Test("GS ( L fn 112 stores the raster and fn 50 prints it; GS 8 L does the same with a 4-byte length")
    func graphicsBuffer() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 16))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        // fn 112: m=48 fn=112 a=48 bx=1 by=1 c=49 xL xH (16 dots) yL yH (4 rows), then k = 2 x 4 bytes.
        let store: [UInt8] = [0x30, 0x70, 0x30, 0x01, 0x01, 0x31, 16, 0, 4, 0] + SampleImage.bytes
        let print: [UInt8] = [0x30, 0x32]  // m=48 fn=50
        try await client.send([0x1D, 0x28, 0x4C, UInt8(store.count), 0x00] + store + [0x1D, 0x28, 0x4C, 0x02, 0x00] + print
                        + EscPos.cut(1)
                        + [0x1D, 0x38, 0x4C, UInt8(store.count), 0, 0, 0] + store + [0x1D, 0x38, 0x4C, 0x02, 0, 0, 0] + print
                        + EscPos.cut(1))

        let pieces = try await printer.pieces(atLeast: 2)
        #expect(pieces.map(\.bitmap.rowStrings) == [SampleImage.rows, SampleImage.rows])
        #expect(printer.record.commands.filter { $0.hasPrefix("GS") } ==
                ["GS ( L fn 112", "GS ( L fn 50", "GS V 1", "GS 8 L fn 112", "GS 8 L fn 50", "GS V 1"])
    }

    @Test("An image wider than the paper is cut off at the edge and reported; double width is reported too")
    func wideAndEnlargedImages() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 8))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.raster(widthBytes: 2, [0xF0, 0xFF]) + EscPos.raster(widthBytes: 1, [0x90], mode: 1)
                        + EscPos.cut(0))
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.bitmap.rowStrings == ["####....", "##....##"])
        let problems = printer.record.problems
        #expect(problems.count == 3)
        #expect(problems.contains { $0.contains("16 dots wide from the 0-dot margin is wider than the printable 8") })
        #expect(problems.contains { $0.contains("double width") })
    }

    @Test("While the paper is out nothing prints or cuts and the drawer is not kicked; after a refill it prints again")
    func paperOutStopsPrinting() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 16))
        defer { printer.stop() }
        printer.update { $0.paperOut = true }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.raster(widthBytes: 2, SampleImage.bytes) + EscPos.cut(0) + EscPos.pulse(0, 50, 50)
                        + EscPos.status(1))
        // The status answer comes after everything before it was interpreted.
        #expect(try await client.receive(1) == [0x1A])
        var record = printer.record
        #expect(record.pieces.isEmpty)
        #expect(record.uncut.lengthInDots == 0)
        #expect(record.drawerPulses.isEmpty)
        #expect(record.notExecuted == ["GS v 0 (4 rows)", "GS V 0", "ESC p 0 50 50"])

        printer.update { $0.paperOut = false }
        try await client.send(EscPos.raster(widthBytes: 2, SampleImage.bytes) + EscPos.cut(0))
        record = try await printer.record("a piece after the refill") { $0.pieces.count == 1 }
        #expect(record.pieces.first?.bitmap.rowStrings == SampleImage.rows)
    }

    @Test("Unknown commands are recorded and skipped; known ones not simulated are listed; printing goes on")
    func unknownCommands() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 16))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send([0x1B, 0x01] + [0x1D, 0x01] + [0x07]
                        + [0x1B, 0x61, 0x01]                                  // ESC a 1: centring
                        + [0x1D, 0x6B, 0x49, 0x03, 0x7B, 0x42, 0x41]          // GS k 73 (Code 128) "{BA"
                        + EscPos.raster(widthBytes: 2, SampleImage.bytes) + EscPos.cut(0))
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.bitmap.rowStrings == SampleImage.rows)
        let record = printer.record
        #expect(record.unknownCommands == [[0x1B, 0x01], [0x1D, 0x01], [0x07]])
        #expect(record.ignoredCommands == ["ESC a 1", "GS k 73"])
    }

    @Test("Text is kept with its row; a cut with text waiting in the line is ignored, as a printer does")
    func textLines() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 96))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.lineSpacing(24) + Array("REPRINT".utf8) + EscPos.lineFeed + Array("tail".utf8) + EscPos.cut(0)
                        + EscPos.lineFeed + EscPos.cut(0))
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.text.map(\.row) == [0, 24])
        #expect(piece.text.map(\.text) == ["REPRINT", "tail"])
        #expect(piece.lengthInDots == 48)
        #expect(printer.record.problems.count == 1)
    }

    @Test("Commands split anywhere across reads are interpreted the same")
    func bytesOneByOne() {
        var engine = EscPosEngine(configuration: .init(printableWidth: 16))
        let stream = EscPos.initialize + EscPos.raster(widthBytes: 2, SampleImage.bytes) + EscPos.status(4)
            + EscPos.feedAndCut(66, 3) + EscPos.processID("0042")
        var answers: [UInt8] = []
        for byte in stream { answers += engine.receive([byte][...]) }
        #expect(answers == [0x12] + EscPos.processIDResponse("0042"))
        #expect(engine.record.pieces.map(\.lengthInDots) == [7])
        #expect(engine.record.pieces.first.map { Array($0.bitmap.rowStrings.prefix(4)) } == SampleImage.rows)
        #expect(engine.record.unknownCommands.isEmpty)
    }
}
