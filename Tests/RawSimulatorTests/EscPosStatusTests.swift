import Simulator
import Testing

/// Status answers and the drawer, byte for byte as Epson's ESC/POS
/// reference documents them (DLE EOT, GS ( H, GS a, ESC p, DLE DC4).
@Suite("ESC/POS status and drawer", .timeLimit(.minutes(1)))
struct EscPosStatusTests {
    /// A state, and the bytes DLE EOT 1, 2, 3 and 4 answer in it. Bits 1 and
    /// 4 are fixed on in every answer (0x12); the rest is the reference's table.
    static let states: [(String, EscPosPrinterState, [UInt8])] = [
        ("ready", .ready, [0x12, 0x12, 0x12, 0x12]),
        // Offline (n=1 bit 3), stopped by paper end (n=2 bit 5), both roll sensors (n=4 bits 2,3 and 5,6).
        ("paper out", EscPosPrinterState(paperOut: true), [0x1A, 0x32, 0x12, 0x7E]),
        // Only the near-end sensor (n=4 bits 2,3); still online.
        ("paper near end", EscPosPrinterState(paperNearEnd: true), [0x12, 0x12, 0x12, 0x1E]),
        // Offline, cover open (n=2 bit 2).
        ("cover open", EscPosPrinterState(coverOpen: true), [0x1A, 0x16, 0x12, 0x12]),
        ("offline", EscPosPrinterState(offline: true), [0x1A, 0x12, 0x12, 0x12]),
        // Drawer kick-out connector pin 3 HIGH (n=1 bit 2).
        ("drawer open", EscPosPrinterState(drawerOpen: true), [0x16, 0x12, 0x12, 0x12]),
        // Offline, an error (n=2 bit 6), autocutter error (n=3 bit 3).
        ("cutter error", EscPosPrinterState(cutterError: true), [0x1A, 0x52, 0x1A, 0x12]),
    ]

    @Test("Each state gives the documented DLE EOT bytes", arguments: states)
    func realTimeStatus(name: String, state: EscPosPrinterState, expected: [UInt8]) async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        printer.setState(state)
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.status(1) + EscPos.status(2) + EscPos.status(3) + EscPos.status(4))
        #expect(try await client.receive(4) == expected, "\(name)")
        // Every answer is a DLE EOT answer, never mistaken for ASB (xxx1xx00).
        #expect(expected.allSatisfy { $0 & 0x93 == 0x12 })
        #expect(printer.record.statusQueries.map(\.command) == ["DLE EOT 1", "DLE EOT 2", "DLE EOT 3", "DLE EOT 4"])
        #expect(printer.record.statusQueries.map(\.answer) == expected)
    }

    @Test("GS ( H fn 48 is answered 37 22 d1..d4 00 once the print before it is done")
    func processIDAnswered() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 16))
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.raster(widthBytes: 2, SampleImage.bytes) + EscPos.cut(0) + EscPos.processID("0001"))
        #expect(try await client.receive(7) == [0x37, 0x22, 0x30, 0x30, 0x30, 0x31, 0x00])
        // Answered after the piece was cut: the piece is there already.
        #expect(printer.pieces.count == 1)
        #expect(printer.record.processIDResponses == ["0001"])
    }

    @Test("While the paper is out GS ( H is held; real-time status still answers; the refill releases the ID")
    func processIDHeldWhilePaperOut() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        printer.update { $0.paperOut = true }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.processID("0002") + EscPos.status(1))
        // The first byte back is DLE EOT 1's (offline), not the held response.
        #expect(try await client.receive(1) == [0x1A])
        #expect(printer.record.processIDResponses.isEmpty)
        printer.update { $0.paperOut = false }
        #expect(try await client.receive(7) == EscPos.processIDResponse("0002"))
        #expect(printer.record.processIDResponses == ["0002"])
    }

    @Test("GS a sends the four ASB bytes when enabled and again when a watched sensor changes")
    func automaticStatusBack() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send([0x1D, 0x61, 0x0F])  // GS a 15: drawer, online/offline, errors, paper sensors
        #expect(try await client.receive(4) == [0x10, 0x00, 0x00, 0x00])
        printer.update { $0.paperNearEnd = true }
        #expect(try await client.receive(4) == [0x10, 0x00, 0x03, 0x00])
        printer.update { $0.coverOpen = true }
        #expect(try await client.receive(4) == [0x38, 0x00, 0x03, 0x00])  // offline (bit 3), cover open (bit 5)
        #expect(printer.record.automaticStatusSettings == [15])
    }

    @Test("ESC p records pin and times (t x 2 ms; off is t1 when t2 < t1); DLE DC4 1 in 100 ms steps")
    func drawerPulses() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        let client = try RawClient(port: try #require(printer.port))
        try await client.send(EscPos.pulse(0, 25, 250) + EscPos.pulse(49, 50, 10) + [0x10, 0x14, 0x01, 0x00, 0x02]
                        + EscPos.status(1))
        _ = try await client.receive(1)
        #expect(printer.record.drawerPulses == [
            DrawerPulse(pin: 2, onMilliseconds: 50, offMilliseconds: 500, realTime: false),
            DrawerPulse(pin: 5, onMilliseconds: 100, offMilliseconds: 100, realTime: false),
            DrawerPulse(pin: 2, onMilliseconds: 200, offMilliseconds: 200, realTime: true),
        ])
    }
}
