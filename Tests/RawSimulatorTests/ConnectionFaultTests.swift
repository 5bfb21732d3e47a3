import Glibc
import Simulator
import Testing

/// The connection behaves as a printer's does: one client at a time, a
/// printer that stops reading blocks its client, a dropped connection is
/// seen as broken.
@Suite("Raw printer connections and faults", .timeLimit(.minutes(1)))
struct ConnectionFaultTests {
    @Test("Stop reading: a client's non-blocking writes find the socket full; resume delivers every byte in order")
    func stopAndResumeReading() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 576))
        defer { printer.stop() }
        printer.stopReading()
        let client = try RawClient(port: try #require(printer.port), sendBuffer: 4096)
        // 1000 rows of 72 bytes, each row its own pattern: any lost or reordered byte shows.
        let rows = (0..<1000).map { row in (0..<72).map { UInt8(truncatingIfNeeded: row * 7 + $0) } }
        let stream = EscPos.initialize + EscPos.raster(widthBytes: 72, rows.flatMap { $0 }) + EscPos.cut(0)

        var sent = 0
        var full = false
        while sent < stream.count, !full {
            if let count = try client.sendWithoutWaiting(stream[sent...]) { sent += count } else { full = true }
        }
        #expect(full, "the socket never filled: \(sent) of \(stream.count) bytes went out")
        #expect(sent < stream.count)
        #expect(printer.record.bytesReceived == 0)

        printer.resumeReading()
        try await client.send(Array(stream[sent...]))
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(printer.record.bytesReceived == stream.count)
        #expect(piece.lengthInDots == 1000)
        let expected = DotBitmap(width: 576, rows: rows.map { row in
            row.map { byte in String((0..<8).map { byte & (0x80 >> $0) != 0 ? "#" : "." }) }.joined()
        })
        #expect(piece.bitmap == expected)
    }

    @Test("Drop after N bytes: the printer reads exactly N, the client sees the connection reset, the next one is served")
    func dropAfterBytes() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        printer.dropConnection(afterBytes: 10)
        let first = try RawClient(port: try #require(printer.port))
        try await first.send(EscPos.initialize + Array(repeating: 0x41, count: 98))
        #expect(try await first.readUntilClosed() == ECONNRESET)
        #expect(printer.record.bytesReceived == 10)

        let second = try RawClient(port: try #require(printer.port))
        try await second.send(EscPos.status(1))
        #expect(try await second.receive(1) == [0x12])
        #expect(printer.record.connections == 2)
        #expect(printer.record.bytesReceived == 13)
    }

    @Test("One connection at a time: a second client waits in the queue until the first closes")
    func secondClientWaits() async throws {
        let printer = try EscPosPrinterSimulator()
        defer { printer.stop() }
        let port = try #require(printer.port)
        var first: RawClient? = try RawClient(port: port)
        try await first?.send(EscPos.initialize)
        _ = try await printer.record("the first connection") { $0.initializations == 1 }
        let second = try RawClient(port: port)
        try await second.send(EscPos.status(2))
        // A round trip on the first connection: everything sent before it was read.
        try await first?.send(EscPos.status(1))
        #expect(try await first?.receive(1) == [0x12])
        #expect(printer.record.statusQueries.map(\.command) == ["DLE EOT 1"])
        #expect(printer.record.connections == 1)

        first = nil  // closes it
        #expect(try await second.receive(1) == [0x12])
        #expect(printer.record.statusQueries.map(\.command) == ["DLE EOT 1", "DLE EOT 2"])
        #expect(printer.record.connections == 2)
    }

    @Test("A command cut off by the end of a connection is dropped and reported, not joined to the next one")
    func truncatedCommand() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 16))
        defer { printer.stop() }
        let port = try #require(printer.port)
        var first: RawClient? = try RawClient(port: port)
        try await first?.send(Array(EscPos.raster(widthBytes: 2, SampleImage.bytes).prefix(11)))
        try await printer.waitForBytes(11)
        first = nil
        _ = try await printer.record("the report of the cut-off raster") { !$0.problems.isEmpty }

        let second = try RawClient(port: port)
        try await second.send(EscPos.raster(widthBytes: 2, SampleImage.bytes) + EscPos.cut(0))
        let piece = try #require(try await printer.pieces(atLeast: 1).first)
        #expect(piece.bitmap.rowStrings == SampleImage.rows)
        #expect(printer.record.problems.first?.contains("11 bytes starting 1D 76 30") == true)
    }

    @Test("A port given at start is the port it listens on; a taken port is refused, naming it")
    func givenPort() throws {
        let first = try EscPosPrinterSimulator()
        defer { first.stop() }
        let port = try #require(first.port)
        #expect(first.uri == "socket://127.0.0.1:\(port)")
        #expect(throws: RawSimulatorError.portInUse(port)) { _ = try ZPLPrinterSimulator(port: port) }
        first.stop()
        // Once freed, the port may be taken by another test's listener (they
        // run in parallel and ask the system for free ports): then try with a
        // fresh one. What is checked is that a free port given is the one used.
        var freed = port
        for attempt in 1...5 {
            do {
                let again = try ZPLPrinterSimulator(port: freed)
                defer { again.stop() }
                #expect(again.port == freed)
                return
            } catch RawSimulatorError.portInUse(let taken) where taken == freed && attempt < 5 {
                let spare = try EscPosPrinterSimulator()
                freed = try #require(spare.port)
                spare.stop()
            }
        }
    }
}
