import Foundation
import IPP
import PrintModel
import Simulator
import Testing

/// Each way contacting a printer fails, provoked for real, and the error it gives.
@Suite("Contact failures")
struct ContactFailureTests {
    /// Contacts `uri` expecting a failure; returns the error and the time it took.
    private func failure(_ uri: String, timeout: Duration = .seconds(5),
                         sourceLocation: SourceLocation = #_sourceLocation) async -> (ContactError?, Duration) {
        let start = ContinuousClock.now
        do {
            let capabilities = try await PrinterContact.contact(uri: uri, timeout: timeout)
            Issue.record("\(uri) answered as printer '\(capabilities.name)'", sourceLocation: sourceLocation)
            return (nil, ContinuousClock.now - start)
        } catch {
            #expect(error.description.contains(uri), "the message names the URI", sourceLocation: sourceLocation)
            return (error, ContinuousClock.now - start)
        }
    }

    /// Starts a `mode` server on loopback and contacts it over `scheme`, expecting
    /// a failure; returns the URI tried, the error and the time it took.
    private func failure(from mode: LoopbackServer.Mode, scheme: String = "ipp", timeout: Duration = .seconds(5),
                         sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> (uri: String, error: ContactError?, elapsed: Duration) {
        let server = try LoopbackServer(mode)
        defer { server.stop() }
        let uri = "\(scheme)://127.0.0.1:\(server.port)/ipp/print"
        let (error, elapsed) = await failure(uri, timeout: timeout, sourceLocation: sourceLocation)
        return (uri, error, elapsed)
    }

    @Test("Nothing listens on the port: refused, well within the timeout")
    func refused() async throws {
        let uri = "ipp://localhost:\(try Loopback.freePort())/ipp/print"
        // A refusal is known at once: had it waited the 30 s out, the error
        // would be a time-out, so the error itself shows it did not (no clock
        // in the assertion: the suite runs beside busy printers and builds).
        let (error, _) = await failure(uri, timeout: .seconds(30))
        #expect(error == .refused(uri: uri))
        #expect(error?.description.contains("kioskprint printers discover") == true)
    }

    @Test("A stopped printer accepts but never answers: timed out within timeout + 1 s", arguments: [false, true])
    func suspendedPrinter(secure: Bool) async throws {
        let lab = try await PrinterLab.shared()
        let printer = try await lab.startPrinter(
            SimulatedPrinter.receipt80mm.named("Hung Receipt \(secure ? "S" : "") \(try Loopback.freePort())"))
        defer { retire(printer) }
        // It answers before it hangs: the timeout below is the printer's doing.
        _ = try await PrinterContact.contact(uri: printer.uri)
        printer.suspend()

        let timeout = Duration.seconds(2)
        let uri = secure ? printer.secureURI : printer.uri
        let (error, elapsed) = await failure(uri, timeout: timeout)
        print("stopped printer over \(secure ? "ipps" : "ipp"): \(error.map { "\($0)" } ?? "no error") after \(seconds(elapsed)) s")
        #expect(error == .timedOut(uri: uri, seconds: 2, connected: true))
        // Gives up at the deadline: not before it, and not long after (a hung
        // printer would otherwise hold the caller forever, and libcups' own TLS
        // wait is 10 s). The upper margin is wide because the test's own task
        // resumes late when the suite's synchronous tests hold both of this
        // machine's cooperative threads (seen: 7.8 s in a full run).
        #expect(elapsed < timeout + .seconds(7), "returned after \(seconds(elapsed)) s")
        #expect(elapsed >= timeout - .milliseconds(50), "waited the whole timeout, not \(seconds(elapsed)) s")
        #expect(error?.description.contains("Power-cycle") == true)
        #expect(error?.description.contains("kioskprint printers check") == true)
    }

    @Test("Cancelling the caller's task ends the wait for a hung printer at once")
    func cancelled() async throws {
        let lab = try await PrinterLab.shared()
        let printer = try await lab.startPrinter(
            SimulatedPrinter.receipt80mm.named("Cancelled Receipt \(try Loopback.freePort())"))
        defer { retire(printer) }
        printer.suspend()

        let start = ContinuousClock.now
        let task = Task { try await PrinterContact.contact(uri: printer.uri, timeout: .seconds(30)) }
        task.cancel()
        let result = await task.result
        #expect(ContinuousClock.now - start < .seconds(10), "cancelling must not wait out the 30 s timeout")
        #expect(throws: ContactError.cancelled(uri: printer.uri)) { try result.get() }
    }

    @Test("A web server that answers POST with 501: not an IPP printer")
    func plainHTTPServer() async throws {
        let (uri, error, _) = try await failure(from: .plain)
        guard case .notIPPPrinter(let errorURI, let reason)? = error else {
            Issue.record("expected notIPPPrinter, got \(String(describing: error))")
            return
        }
        #expect(errorURI == uri)
        #expect(reason.contains("HTTP 501"))
    }

    @Test("A web server that answers 200 with HTML: not an IPP printer")
    func htmlServer() async throws {
        let (uri, error, _) = try await failure(from: .html)
        #expect(error == .notIPPPrinter(uri: uri, reason: "its reply is text/html, not IPP"))
    }

    @Test("A service that closes the connection without a reply: not an IPP printer")
    func closingServer() async throws {
        let (uri, error, _) = try await failure(from: .close)
        #expect(error == .notIPPPrinter(uri: uri, reason: "it closed the connection without an IPP reply"))
    }

    @Test("A printer that wants a password: authentication required, and no prompt on the terminal")
    func authentication() async throws {
        let (uri, error, _) = try await failure(from: .auth)
        #expect(error == .authenticationRequired(uri: uri))
    }

    @Test("ipps:// to a server without TLS: a TLS failure that suggests ipp://")
    func tlsFailure() async throws {
        // A failed handshake is a TLS error, not the 30 s time-out it would be if it waited.
        let (uri, error, _) = try await failure(from: .plain, scheme: "ipps", timeout: .seconds(30))
        guard case .tls(let errorURI, let detail)? = error else {
            Issue.record("expected tls, got \(String(describing: error))")
            return
        }
        #expect(errorURI == uri)
        #expect(!detail.isEmpty)
        #expect(error?.description.contains("ipp://") == true)
    }

    @Test("A wrong path on a real printer: the printer's IPP error and its message")
    func ippError() async throws {
        let lab = try await PrinterLab.shared()
        let printer = try #require(lab.printer(.label4x6))
        let uri = "ipp://localhost:\(printer.port)/ipp/nothing-here"
        let (error, _) = await failure(uri)
        guard case .ippError(_, let status, let message)? = error else {
            Issue.record("expected ippError, got \(String(describing: error))")
            return
        }
        #expect(status == "client-error-not-found")
        #expect(message?.contains("not found") == true)
    }

    @Test("Unusable URIs are refused before any connection",
          arguments: ["not a uri", "ipp://", "http://localhost:631/ipp/print", "ipp://host:99999/x",
                      "socket://printer:9100"])
    func invalidURI(uri: String) async throws {
        let (error, _) = await failure(uri)
        guard case .invalidURI(let errorURI, _)? = error else {
            Issue.record("expected invalidURI, got \(String(describing: error))")
            return
        }
        #expect(errorURI == uri)
    }

    @Test("A host name that does not resolve")
    func hostNotFound() async throws {
        let uri = "ipp://no-such-printer.invalid:631/ipp/print"
        let (error, _) = await failure(uri)
        #expect(error == .hostNotFound(uri: uri, host: "no-such-printer.invalid"))
    }

    @Test("Every message names the URI and says what to do next")
    func messages() {
        let uri = "ipp://192.168.1.40:631/ipp/print"
        let errors: [ContactError] = [
            .invalidURI(uri: uri, reason: "bad"), .hostNotFound(uri: uri, host: "h"), .refused(uri: uri),
            .unreachable(uri: uri, detail: "No route to host"),
            .timedOut(uri: uri, seconds: 5, connected: true), .timedOut(uri: uri, seconds: 2.5, connected: false),
            .notIPPPrinter(uri: uri, reason: "r"), .authenticationRequired(uri: uri), .tls(uri: uri, detail: "d"),
            .ippError(uri: uri, status: "client-error-not-found", message: "gone"), .cancelled(uri: uri),
        ]
        for error in errors {
            #expect(error.description.contains(uri))
            #expect(error.uri == uri)
            #expect(error.description.contains("kioskprint") || error.description.contains("ipp://"),
                    "\(error) says what to do")
        }
        #expect(ContactError.timedOut(uri: uri, seconds: 5, connected: true).description.contains("within 5 s"))
        #expect(ContactError.timedOut(uri: uri, seconds: 2.5, connected: false).description.contains("2.5 s"))
    }
}
