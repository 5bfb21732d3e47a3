import Glibc
import RawPrinters
import Simulator
import Testing

/// The raw TCP link against a real listener on loopback, at a port the kernel picked.
@Suite("Raw TCP links", .timeLimit(.minutes(1)))
struct TCPLinkTests {
    @Test func bytesArriveIntactAndAnswersComeBack() async throws {
        let listener = try LoopbackListener()
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: listener.port)
        let job = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let answer: [UInt8] = try await offloaded {
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5))
            try listener.accept()
            try link.write(job, stallWindow: .seconds(10))
            try listener.send([0x16])  // a one-byte status answer, as DLE EOT gets
            let answer = try link.read(atMost: 16, deadline: .now + .seconds(10))
            link.close()
            return answer
        }
        #expect(answer == [0x16])
        let received = try await offloaded { try listener.readUntilClosed() }
        #expect(received == job)
    }

    @Test func aPrinterThatStopsReadingEndsTheWriteWithHowMuchWentThrough() async throws {
        let listener = try LoopbackListener(receiveBuffer: 4096)
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: listener.port)
        let total = 16 << 20  // far more than both sockets' buffers hold
        let failure = try await offloaded { () -> LinkError? in
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5))
            defer { link.close() }
            try listener.accept()  // accepted, and never read from
            do throws(LinkError) {
                try link.write([UInt8](repeating: 0x55, count: total), stallWindow: .milliseconds(500))
                return nil
            } catch {
                return error
            }
        }
        let error = try #require(failure)
        guard case .writeTimedOut(let sent, let reportedTotal, _) = error.reason else {
            Issue.record("expected writeTimedOut, got \(error.reason)")
            return
        }
        #expect(reportedTotal == total)
        #expect(sent > 0 && sent < total)
        #expect(error.bytesSent == sent)
        #expect(error.description.hasPrefix("\(uri) stopped taking data: \(sent) of \(total) bytes went through"))
        #expect(error.description.contains("cover open, paper out"))
    }

    @Test func aReadWithNothingToReadReturnsEmptyAtTheDeadline() async throws {
        let listener = try LoopbackListener()
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: listener.port)
        let (nothing, later) = try await offloaded {
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5))
            defer { link.close() }
            try listener.accept()
            let nothing = try link.read(atMost: 64, deadline: .now + .milliseconds(200))
            // The link is still good afterwards.
            try listener.send(Array("OK".utf8))
            let later = try link.read(atMost: 64, deadline: .now + .seconds(10))
            return (nothing, later)
        }
        #expect(nothing.isEmpty)
        #expect(later == Array("OK".utf8))
    }

    @Test func aRefusedPortIsNamedWithWhatToCheck() async throws {
        let bound = try LoopbackListener(listening: false)  // the port is ours, and nothing listens on it
        let uri = try RawPrinterURI(parsing: "socket://127.0.0.1:\(bound.port)")
        let error = try await linkError { _ = try RawLinks.open(uri, deadline: .now + .seconds(5)) }
        #expect(error.reason == .refused)
        #expect(error.description.hasPrefix("Cannot reach socket://127.0.0.1:\(bound.port): nothing accepts connections"))
        #expect(error.description.contains("raw port (usually 9100)"))
    }

    @Test func aHandshakeThatNeverCompletesEndsAtTheDeadline() async throws {
        // A full backlog makes the kernel drop the SYN, as an unplugged printer's network does.
        let listener = try LoopbackListener(backlog: 0)
        listener.fillBacklog(count: 4)
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: listener.port)
        let error = try await linkError { _ = try RawLinks.open(uri, deadline: .now + .milliseconds(300)) }
        guard case .connectTimedOut = error.reason else {
            Issue.record("expected connectTimedOut, got \(error.reason)")
            return
        }
        #expect(error.description.hasPrefix("\(uri) did not accept a connection within"))
        #expect(error.description.contains("off, unplugged or on another network"))
    }

    @Test func aNameIsTriedAtEachAddressItResolvesTo() async throws {
        // localhost may resolve to ::1 first, where nothing listens; 127.0.0.1 then answers.
        let listener = try LoopbackListener()
        let uri = try RawPrinterURI(parsing: "socket://localhost:\(listener.port)")
        let received = try await offloaded {
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5))
            try listener.accept()
            try link.write(Array("~HS".utf8), stallWindow: .seconds(5))
            link.close()
            return try listener.readUntilClosed()
        }
        #expect(received == Array("~HS".utf8))
    }

    @Test func aNameThatDoesNotResolveIsNamed() async throws {
        let uri = try RawPrinterURI(parsing: "socket://no-such-printer.invalid")
        let error = try await linkError { _ = try RawLinks.open(uri, deadline: .now + .seconds(3)) }
        switch error.reason {
        case .hostNotFound(let host, _), .lookupTimedOut(let host, _):
            #expect(host == "no-such-printer.invalid")
        default:
            Issue.record("expected the name not to resolve, got \(error.reason)")
        }
        #expect(error.description.contains("socket://no-such-printer.invalid:9100"))
        #expect(error.description.contains("IP address"))
    }

    @Test func aPrinterThatHangsUpIsAConnectionLost() async throws {
        let listener = try LoopbackListener()
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: listener.port)
        let error = try await linkError {
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5))
            defer { link.close() }
            try listener.accept()
            listener.closePeer()
            _ = try link.read(atMost: 8, deadline: .now + .seconds(10))
        }
        #expect(error.reason == .connectionLost(errno: nil, sent: nil, total: nil))
        #expect(error.description.hasPrefix("\(uri) closed the connection"))
    }

    @Test func cancellingAnAsyncReadClosesTheLinkAtOnce() async throws {
        let listener = try LoopbackListener()
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: listener.port)
        let link = try await AsyncPrinterLink.open(uri, deadline: .now + .seconds(5))
        try await offloaded { try listener.accept() }
        let reading = Task { () -> LinkError? in
            do throws(LinkError) {
                _ = try await link.readAnswer(limit: 8, deadline: .now + .seconds(600)) { _ in false }
                return nil
            } catch {
                return error
            }
        }
        reading.cancel()
        let error = try #require(await reading.value)
        #expect(error.reason == .cancelled)
        // Closed for good: a later call says so.
        await #expect(throws: LinkError(uri: uri, reason: .closed)) {
            try await link.write([0x1B, 0x40], stallWindow: .seconds(1))
        }
    }

    @Test func closingTwiceIsHarmless() async throws {
        let listener = try LoopbackListener()
        let uri = RawPrinterURI.socket(host: "127.0.0.1", port: listener.port)
        let error = try await linkError {
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5))
            link.close()
            link.close()
            try link.write([0x1B, 0x40], stallWindow: .seconds(1))
        }
        #expect(error.reason == .closed)
        #expect(error.description == "The link to \(uri) was already closed; open it again.")
    }
}

/// Runs blocking link calls off the cooperative pool and returns the LinkError they end with.
func linkError(_ work: @escaping @Sendable () throws -> Void) async throws -> LinkError {
    let outcome = try await offloaded { () -> LinkError? in
        do {
            try work()
            return nil
        } catch let error as LinkError {
            return error
        }
    }
    return try #require(outcome, "the call succeeded; a LinkError was expected")
}
