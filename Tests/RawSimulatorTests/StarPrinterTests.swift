import PrintModel
import Simulator
import Testing

/// The Star simulator against streams written from Star's specifications
/// (STAR Line Mode Command Specifications Rev 1.12, Star's CUPS filter
/// rastertostar's page layout, StarPRNT's ESC GS S), not from KioskPrint's
/// encoders: what reaches the paper, the automatic status, and a command of
/// another Star language noted as a problem.
@Suite("Star printers", .timeLimit(.minutes(1)))
struct StarPrinterTests {
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    /// `ESC * r <letter> n NUL`.
    static func raster(_ letter: String, _ value: Int) -> [UInt8] { [0x1B, 0x2A, 0x72] + ascii(letter + String(value)) + [0] }
    static let enterRaster: [UInt8] = [0x1B, 0x2A, 0x72, 0x52, 0x1B, 0x2A, 0x72, 0x41]

    @Test("A page as rastertostar writes it: rows, a blank run, ESC FF EOT cuts as the EOT mode says")
    func starGraphicPageAsStarsFilterWritesIt() async throws {
        let printer = try StarPrinterSimulator(configuration: .init(emulation: .starGraphic, printableWidth: 16))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        // ESC @, raster mode, E 13 (partial cut at the document's end), a NUL, two rows, 3 white rows fed,
        // then the filter's page end `ESC * r Y 1 NUL ESC FF` and the job end `EOT ESC * r B`.
        try await client.send([0x1B, 0x40] + Self.enterRaster + Self.raster("E", 13) + [0x00]
                              + [0x62, 0x02, 0x00, 0xF0, 0x0F] + [0x62, 0x01, 0x00, 0x81] + Self.raster("Y", 3)
                              + Self.raster("Y", 1) + [0x1B, 0x0C] + [0x04, 0x1B, 0x2A, 0x72, 0x42])
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.bitmap.rowStrings == ["####........####", "#......#........"] + Array(repeating: String(repeating: ".", count: 16), count: 4))
        #expect(piece.cut == StarCut(kind: .partial, command: "ESC FF EOT (mode 13)"))
        let record = printer.record
        #expect(record.problems.isEmpty && record.unknownCommands.isEmpty, "\(record.problems)")
        #expect(record.initializations == 1)
    }

    @Test("ESC d cuts in Star Line mode once raster mode is quit, and not inside it")
    func starLineCutsWithESCd() async throws {
        let printer = try StarPrinterSimulator(configuration: .init(emulation: .starLine, printableWidth: 16))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(Self.enterRaster + Self.raster("E", 1) + [0x62, 0x01, 0x00, 0xFF] + [0x1B, 0x64, 0x03]  // ESC d in raster: refused
                              + [0x1B, 0x2A, 0x72, 0x42] + [0x1B, 0x64, 0x32])  // quit (E 1: print only), ESC d '2': full cut
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.bitmap.rowStrings == ["########........"])
        #expect(piece.cut == StarCut(kind: .full, command: "ESC d 50"))
        #expect(printer.record.problems == ["ESC d in raster mode, where only raster commands work"])
    }

    @Test("StarPRNT prints ESC GS S blocks at the left edge; ESC * r is not StarPRNT")
    func starPRNTBlocks() async throws {
        let printer = try StarPrinterSimulator(configuration: .init(emulation: .starPRNT, printableWidth: 24))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        // A block 1 byte by 2 rows, then [ESC * r A, which a TSP100IV does not take], then ESC d 1.
        try await client.send([0x1B, 0x1D, 0x53, 0x01, 0x01, 0x00, 0x02, 0x00, 0x00, 0x80, 0x01]
                              + [0x1B, 0x2A, 0x72, 0x41] + [0x1B, 0x64, 0x01])
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.bitmap.rowStrings == ["#.......................", ".......#................"])
        #expect(piece.cut?.kind == .partial)
        #expect(printer.record.problems.contains("ESC 42 is not a StarPRNT command this printer knows"), "\(printer.record.problems)")
    }

    /// The automatic status for each state, as the appendix lays it out:
    /// header 1 0x23 (9 bytes), header 2 the version, then printer status 1
    /// (0x20 cover, 0x08 off line, 0x04 drawer switch), error 1 (0x08
    /// cutter), error 2, the paper sensor (0x08 end, 0x04 near end inner).
    static let states: [(String, StarPrinterState, [UInt8])] = [
        ("ready", .ready, [0x23, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
        ("paper out", StarPrinterState(paperOut: true), [0x23, 0x06, 0x08, 0x00, 0x00, 0x0C, 0x00, 0x00, 0x00]),
        ("near end", StarPrinterState(paperNearEnd: true), [0x23, 0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00]),
        ("cover open", StarPrinterState(coverOpen: true), [0x23, 0x06, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
        ("drawer open", StarPrinterState(drawerOpen: true), [0x23, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
        ("cutter error", StarPrinterState(cutterError: true), [0x23, 0x06, 0x08, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]),
    ]

    @Test("ESC ACK SOH is answered with the automatic status, even while stopped", arguments: states)
    func automaticStatus(name: String, state: StarPrinterState, expected: [UInt8]) async throws {
        let printer = try StarPrinterSimulator(configuration: .init(emulation: .starGraphic))
        defer { printer.stop() }
        printer.update { $0 = state }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send([0x1B, 0x06, 0x01])
        let answer = try await client.receive(9)
        #expect(answer == expected, "\(name)")
        #expect(answer[0] & 0x91 == 0x01 && answer.dropFirst().allSatisfy { $0 & 0x91 == 0 }, "only header 1 has bit 0 set")
    }

    @Test("A stopped printer prints nothing and notes what it skipped; the drawer still answers to BEL")
    func stoppedPrinterSkipsPrinting() async throws {
        let printer = try StarPrinterSimulator(configuration: .init(emulation: .starPRNT, printableWidth: 16))
        defer { printer.stop() }
        printer.update { $0.coverOpen = true }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send([0x1B, 0x1D, 0x53, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0x1B, 0x64, 0x02, 0x1B, 0x07, 0x0A, 0x14, 0x07])
        let record = try await printer.record("the drawer pulse") { !$0.drawerPulses.isEmpty }
        #expect(record.pieces.isEmpty && record.notExecuted == ["ESC GS S (1 rows)", "ESC d 2"])
        #expect(record.drawerPulses == [DrawerPulse(pin: 2, onMilliseconds: 100, offMilliseconds: 200, realTime: false)])
    }
}
