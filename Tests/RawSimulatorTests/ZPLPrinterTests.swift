import Simulator
import Testing

/// Labels and host status, against ZPL written from the ZPL II Programming Guide.
@Suite("ZPL printer", .timeLimit(.minutes(1)))
struct ZPLPrinterTests {
    /// A 240x12 label: a 16x5 graphic in the compressed form, and a 200x2 one
    /// using the 20-step repeat counts, placed from ^LH plus ^FO.
    static let label = "^XA^PW240^LL12^MNN^MMC^LH8,1"
        // 16 dots x 5 rows (2 bytes a row, 10 bytes in all):
        //   !     row 0 FFFF: '!' fills the row with 1s
        //   FH0F  row 1 F00F: H repeats the next digit twice
        //   :     row 2 F00F: ':' repeats the previous row
        //   8,    row 3 8000: ',' fills the rest with 0
        //   I01   row 4 0001: I repeats 0 three times
        + "^FO0,0^GFA,10,10,2,!FH0F:8,I01^FS"
        // 200 dots x 2 rows (25 bytes a row): h = 40 F digits then ',';
        // gH = 20 + 2 = 22 F digits then ','.
        + "^FO16,6^GFA,50,50,25,hF,gHF,^FS"
        + "^FO30,0^FDREPRINT^FS^PQ2^XZ"

    static func expectedBitmap() -> DotBitmap {
        var rows = Array(repeating: String(repeating: ".", count: 240), count: 12)
        func put(_ text: String, x: Int, y: Int) {
            var row = Array(rows[y])
            for (offset, character) in text.enumerated() { row[x + offset] = character }
            rows[y] = String(row)
        }
        for (index, row) in ["################", "####........####", "####........####", "#...............",
                             "...............#"].enumerated() {
            put(row, x: 8, y: 1 + index)
        }
        put(String(repeating: "#", count: 160), x: 24, y: 7)
        put(String(repeating: "#", count: 88), x: 24, y: 8)
        return DotBitmap(width: 240, rows: rows)
    }

    @Test("A ^GFA label with compressed data decodes to the hand-computed bitmap, with ^PW ^LL ^MN ^MM ^PQ recorded")
    func compressedGraphicLabel() async throws {
        let printer = try ZPLPrinterSimulator()
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(Array(Self.label.utf8))

        let label = try #require(try await printer.labels(atLeast: 1).first)
        #expect(label.width == 240)
        #expect(label.length == 12)
        #expect(label.mediaTracking == .continuous)
        #expect(label.mediaMode == .cutter)
        #expect(label.copies == 2)
        #expect(label.bitmap.rowStrings == Self.expectedBitmap().rowStrings)
        #expect(label.fields == [ZPLField(x: 38, y: 1, data: "REPRINT")])
        #expect(printer.record.problems.isEmpty)
    }

    @Test("Media settings last from format to format until changed", arguments: [
        ("^MNY^MMT", ZPLMediaTracking.gap, ZPLMediaMode.tearOff),
        ("^MNW^MMD", .gap, .delayedCut),
        ("^MNM^MMP", .mark, .peelOff),
        ("^MNA^MMK", .other("A"), .other("K")),
    ])
    func mediaSettings(commands: String, tracking: ZPLMediaTracking, mode: ZPLMediaMode) async throws {
        let printer = try ZPLPrinterSimulator(configuration: .init(printWidth: 16, labelLength: 8))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(Array("^XA\(commands)^XZ^XA^FO0,0^GFA,2,2,2,FFFF^FS^XZ".utf8))
        let labels = try await printer.labels(atLeast: 2)
        #expect(labels.map(\.mediaTracking) == [tracking, tracking])
        #expect(labels.map(\.mediaMode) == [mode, mode])
        #expect(labels.map(\.length) == [8, 8])
        #expect(labels[1].bitmap.rowStrings.first == "################")
    }

    /// The ~HS fields that carry the state: string 1's paper out (b) and
    /// pause (c), string 2's head up (o).
    @Test("~HS answers three STX..ETX CR LF strings whose flags follow the state", arguments: [
        (ZPLPrinterState.ready, "0", "0", "0"),
        (ZPLPrinterState(paperOut: true), "1", "0", "0"),
        (ZPLPrinterState(paused: true), "0", "1", "0"),
        (ZPLPrinterState(headUp: true), "0", "0", "1"),
    ])
    func hostStatus(state: ZPLPrinterState, paperOut: String, paused: String, headUp: String) async throws {
        let printer = try ZPLPrinterSimulator()
        defer { printer.stop() }
        printer.setState(state)
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(Array("^XA^LL1234^MMC^XZ~HS".utf8))
        let strings = try await Self.hostStatusStrings(client)
        #expect(strings.count == 3)
        let first = strings[0].split(separator: ",").map(String.init)
        let second = strings[1].split(separator: ",").map(String.init)
        #expect(first.count == 12)
        #expect(second.count == 11)
        #expect(strings[2].split(separator: ",").count == 2)
        #expect(first[1] == paperOut)
        #expect(first[2] == paused)
        #expect(first[3] == "1234")                         // label length in dots
        #expect(first[4] == (state.canPrint ? "000" : "001"))  // formats waiting in the buffer
        #expect(second[2] == headUp)
        #expect(second[5] == "3")                           // print mode: cutter
    }

    @Test("A label finished while paused waits and prints when the pause ends")
    func labelWaitsWhilePaused() async throws {
        let printer = try ZPLPrinterSimulator(configuration: .init(printWidth: 16, labelLength: 4))
        defer { printer.stop() }
        printer.update { $0.paused = true }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(Array("^XA^FO0,0^GFA,2,2,2,F0F0^FS^XZ".utf8))
        let waiting = try await printer.record("a waiting label") { $0.waitingLabels.count == 1 }
        #expect(waiting.labels.isEmpty)
        printer.update { $0.paused = false }
        let labels = try await printer.labels(atLeast: 1)
        #expect(labels.first?.bitmap.rowStrings.first == "####....####....")
        #expect(printer.record.waitingLabels.isEmpty)
    }

    @Test("~PP pauses from the host, ~JA throws the waiting formats away, ~PS resumes and prints what came since")
    func hostPauseAndCancel() async throws {
        let printer = try ZPLPrinterSimulator(configuration: .init(printWidth: 16, labelLength: 2))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        let format = { (hex: String) in "^XA^FO0,0^GFA,2,2,2,\(hex)^FS^XZ" }
        try await client.send(Array(("~PP" + format("FF00") + "~JA" + format("00FF") + "~PS").utf8))
        let labels = try await printer.labels(atLeast: 1)
        #expect(labels.map { $0.bitmap.rowStrings[0] } == ["........########"])
        #expect(printer.state == .ready)
        #expect(printer.record.waitingLabels.isEmpty)
    }

    @Test("Firmware that stays silent when faulted: ~HS out of paper gets no answer, the next one after the refill does")
    func silentWhenFaulted() async throws {
        let printer = try ZPLPrinterSimulator(configuration: .init(answersHostStatusWhenFaulted: false))
        defer { printer.stop() }
        printer.update { $0.paperOut = true }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(Array("~HS".utf8))
        _ = try await printer.record("the first ~HS") { $0.hostStatusRequests == 1 }
        printer.update { $0.paperOut = false }
        try await client.send(Array("~HS".utf8))
        let strings = try await Self.hostStatusStrings(client)
        #expect(strings[0].split(separator: ",")[1] == "0")
        #expect(printer.record.hostStatusRequests == 2)
        #expect(printer.record.hostStatusAnswers.count == 1)
    }

    @Test("Text outside commands and commands outside a format are reported")
    func problemsReported() async throws {
        let printer = try ZPLPrinterSimulator()
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(Array("hello\r\n^FO1,1^XZ^XA^GFA,4,4,2,FFFF^FS^XZ".utf8))
        _ = try await printer.labels(atLeast: 1)
        let problems = printer.record.problems
        #expect(problems.count == 4)
        #expect(problems.contains { $0.contains("\"hello\"") })
        #expect(problems.contains { $0.contains("^FO outside a format") })
        #expect(problems.contains { $0.contains("^XZ without ^XA") })
        #expect(problems.contains { $0.contains("decodes to 2 bytes, but the graphic field count is 4") })
    }

    /// Reads the three ~HS strings: each STX, fields, ETX, CR, LF.
    static func hostStatusStrings(_ client: RawClient) async throws -> [String] {
        var strings: [String] = []
        for _ in 0..<3 {
            var bytes = try await client.receive(1)
            #expect(bytes == [0x02])
            bytes = []
            while bytes.last != 0x0A { bytes += try await client.receive(1) }
            #expect(bytes.suffix(3) == [0x03, 0x0D, 0x0A])
            strings.append(String(decoding: bytes.dropLast(3), as: UTF8.self))
        }
        return strings
    }
}
