import CCups
import Foundation
import PrintModel

/// Where a printer listens, taken apart from its URI by libcups.
struct IPPEndpoint: Sendable, Hashable {
    var uri: String
    var secure: Bool
    var host: String
    var port: Int
    var resource: String

    /// Accepts `ipp://` and `ipps://` URIs with a host; the port defaults to 631.
    init(uri: String) throws(ContactError) {
        var scheme = [CChar](repeating: 0, count: 32)
        var user = [CChar](repeating: 0, count: 256)
        var host = [CChar](repeating: 0, count: 256)
        var resource = [CChar](repeating: 0, count: 1024)
        var port: Int32 = 0
        let status = httpSeparateURI(HTTP_URI_CODING_ALL, uri, &scheme, 32, &user, 256, &host, 256, &port,
                                     &resource, 1024)
        // Negative values are errors; positive ones are warnings such as
        // HTTP_URI_STATUS_MISSING_RESOURCE, which "/" answers.
        guard status.rawValue >= 0 else {
            throw .invalidURI(uri: uri, reason: String(cString: httpURIStatusString(status)).lowercased())
        }
        let schemeName = String(decoding: scheme.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
        let hostName = String(decoding: host.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
        let path = String(decoding: resource.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
        guard schemeName == "ipp" || schemeName == "ipps" else {
            throw .invalidURI(uri: uri, reason: "the scheme must be ipp or ipps, not '\(schemeName)'")
        }
        guard !hostName.isEmpty else { throw .invalidURI(uri: uri, reason: "it names no host") }
        guard (1...65535).contains(port) else { throw .invalidURI(uri: uri, reason: "port \(port) is out of range") }
        self.uri = uri
        self.secure = schemeName == "ipps"
        self.host = hostName
        self.port = Int(port)
        self.resource = path.isEmpty ? "/" : path
    }
}

/// Builds the operation attributes of a request. Runs on the worker thread
/// with the request libcups is about to send; it must not keep the pointer.
struct IPPRequestBuilder: Sendable {
    let build: @Sendable (OpaquePointer) -> Void
}

/// libcups calls this while it waits for the printer; 0 means give up.
/// A C function pointer: it captures nothing and finds the control through
/// the user-data pointer, which the worker keeps alive for the whole exchange.
private let timeoutCallback: http_timeout_cb_t = { _, userData in
    guard let userData else { return 0 }
    return Unmanaged<ExchangeControl>.fromOpaque(userData).takeUnretainedValue().keepWaiting() ? 1 : 0
}

/// How often libcups consults `timeoutCallback`: the most a deadline can be overrun.
private let waitSlice = 0.25

enum IPPExchange {
    /// Sends one request to the printer at `uri` and returns its IPP reply,
    /// whatever the IPP status, within `timeout` (plus at most half a second).
    /// The libcups work runs on a worker of `WorkerPool.shared`, over a
    /// connection an earlier exchange left open when there is one
    /// (`ConnectionCache`). Printing and job tracking send their operations
    /// through here too.
    /// `document`, when given, follows the request in the same HTTP body (Print-Job).
    /// With a `pin`, the certificate the printer presents must be that one,
    /// or nothing is sent (`.certificateChanged`).
    static func send(uri: String, operation: ipp_op_t, timeout: Duration, pin: CertificateFingerprint?,
                     builder: IPPRequestBuilder, document: Data? = nil,
                     connections: ConnectionCache = .shared) async throws(ContactError) -> IPPResponse {
        let endpoint = try IPPEndpoint(uri: uri)
        let control = ExchangeControl(timeout: timeout)
        let result = await BlockingExchange.run(
            control: control,
            // The backstop fires after libcups' own connect timeout (the time
            // left) has passed: past the name lookup, the TCP connection was
            // accepted and the printer is silent in the TLS handshake or after.
            onDeadline: {
                .failure(.timedOut(uri: uri, seconds: control.timeoutSeconds, connected: control.hasLookedUp))
            },
            onCancel: { .failure(.cancelled(uri: uri)) },
            work: { perform(endpoint, operation: operation, control: control, pin: pin, builder: builder,
                            document: document, connections: connections) })
        return try result.get()
    }

    /// Sends one IPP request and returns whatever IPP reply came back, success
    /// or IPP error status alike; a failure to get an IPP reply at all is a
    /// `ContactError`. Blocking: call on a worker thread only.
    ///
    /// It runs on a connection an earlier exchange left open when there is
    /// one. A read-only request that fails there (the printer closed it just
    /// then) is sent once more on a new connection; a job is not: whether the
    /// printer took it is for the caller to find out (`mayHaveBeenAccepted`).
    static func perform(_ endpoint: IPPEndpoint, operation: ipp_op_t, control: ExchangeControl,
                        pin: CertificateFingerprint?, builder: IPPRequestBuilder, document: Data? = nil,
                        connections: ConnectionCache = .shared) -> Result<IPPResponse, ContactError> {
        // libcups answers an HTTP 401 by asking for a password on the terminal;
        // a kiosk agent has none. The callback is per thread, like all libcups state.
        cupsSetPasswordCB2({ _, _, _, _, _ in nil }, nil)
        let key = ConnectionKey(endpoint, pin: pin)
        return withExtendedLifetime(control) {
            if let kept = connections.lend(key) {
                control.markLookedUp()
                let result = exchange(on: kept, endpoint: endpoint, operation: operation, control: control, pin: pin,
                                      builder: builder, document: document, connections: connections)
                guard case .failure(let error) = result,
                      mayResend(operation, after: error, control: control) else { return result }
            }
            switch connect(endpoint, key: key, control: control, pin: pin) {
            case .failure(let error):
                return .failure(error)
            case .success(let fresh):
                connections.opened(key)
                return exchange(on: fresh, endpoint: endpoint, operation: operation, control: control, pin: pin,
                                builder: builder, document: document, connections: connections)
            }
        }
    }

    /// Opens a connection to `endpoint` within the time `control` leaves; over
    /// ipps, one that presents the pinned certificate.
    private static func connect(_ endpoint: IPPEndpoint, key: ConnectionKey, control: ExchangeControl,
                                pin: CertificateFingerprint?) -> Result<KeptConnection, ContactError> {
        let encryption = endpoint.secure ? HTTP_ENCRYPTION_ALWAYS : HTTP_ENCRYPTION_IF_REQUESTED
        // msec 0: create the connection object without connecting, so that the
        // timeout callback is in place before the first byte is awaited.
        guard let http = httpConnect2(endpoint.host, Int32(endpoint.port), nil, AF_UNSPEC, encryption, 1, 0, nil)
        else {
            // With msec 0 only the address lookup ran.
            return .failure(.hostNotFound(uri: endpoint.uri, host: endpoint.host))
        }
        control.markLookedUp()
        attach(control, to: http)
        if httpReconnect2(http, control.remainingMilliseconds, nil) != 0 {
            let failure = connectFailure(http, endpoint: endpoint, control: control)
            httpClose(http)
            return .failure(failure)
        }
        // The handshake is done (encryption ALWAYS) and nothing is sent yet:
        // the moment to refuse a printer that is not the one pinned.
        let presented = endpoint.secure ? PresentedCertificate.fingerprint(of: http) : nil
        let connection = KeptConnection(http, key: key, certificate: presented)
        if let pin, presented != pin {
            connection.close()
            return .failure(.certificateChanged(CertificateMismatch(uri: endpoint.uri, pinned: pin,
                                                                    presented: presented)))
        }
        return .success(connection)
    }

    /// One request and its reply on `connection`, which goes back to
    /// `connections` when the reply was read whole, and is closed otherwise.
    private static func exchange(on connection: KeptConnection, endpoint: IPPEndpoint, operation: ipp_op_t,
                                 control: ExchangeControl, pin: CertificateFingerprint?, builder: IPPRequestBuilder,
                                 document: Data?, connections: ConnectionCache) -> Result<IPPResponse, ContactError> {
        let http = connection.http
        attach(control, to: http)
        guard let request = ippNewRequest(operation) else {
            connections.giveBack(connection)
            return .failure(.unreachable(uri: endpoint.uri, detail: "libcups could not allocate a request"))
        }
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, endpoint.uri)
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
        builder.build(request)
        // Both paths free the request.
        let reply = document.map { sendWithDocument(http, request, resource: endpoint.resource, document: $0) }
            ?? cupsDoRequest(http, request, endpoint.resource)
        // libcups reconnects inside a request after some failures (a POST
        // that could not be written, 417, 426), with a handshake of its own.
        // A reply over a session with another certificate is not the pinned
        // printer's: refused. (Nil: the session is already gone; nothing says
        // another peer answered.)
        if let pin, endpoint.secure, let final = PresentedCertificate.fingerprint(of: http), final != pin {
            if let reply { ippDelete(reply) }
            connection.close()
            return .failure(.certificateChanged(CertificateMismatch(uri: endpoint.uri, pinned: pin, presented: final)))
        }
        guard let response = reply else {
            let failure = exchangeFailure(http, endpoint: endpoint, control: control)
            connection.close()
            return .failure(failure)
        }
        defer { ippDelete(response) }
        var answer = IPPResponse(copying: response)
        answer.certificate = connection.certificate
        // A worker the deadline abandoned may still get its reply: the
        // connection is sound, but the caller has gone; nothing else is kept.
        if control.isCancelled { connection.close() } else { connections.giveBack(connection) }
        return .success(answer)
    }

    /// Whether a request that failed on a kept connection may go once more on
    /// a new one: only one that changes nothing at the printer, and only when
    /// the connection broke (not when the printer is silent, or time is up).
    private static func mayResend(_ operation: ipp_op_t, after error: ContactError,
                                  control: ExchangeControl) -> Bool {
        guard !control.isCancelled, !control.gaveUpOnDeadline else { return false }
        let readOnly = [IPP_OP_GET_PRINTER_ATTRIBUTES, IPP_OP_GET_JOB_ATTRIBUTES, IPP_OP_GET_JOBS,
                        IPP_OP_VALIDATE_JOB].contains(operation)
        switch error {
        case .notIPPPrinter, .unreachable: return readOnly
        default: return false
        }
    }

    /// Makes libcups consult `control` while it waits on `http`.
    private static func attach(_ control: ExchangeControl, to http: OpaquePointer) {
        httpSetTimeout(http, max(0.01, min(waitSlice, control.timeoutSeconds)), timeoutCallback,
                       Unmanaged.passUnretained(control).toOpaque())
    }

    /// Adds a keyword (or other string) attribute with one or more values.
    static func addStrings(_ request: OpaquePointer, group: ipp_tag_t, syntax: ipp_tag_t, name: String,
                           _ values: [String]) {
        guard let first = values.first else { return }
        var attribute = ippAddString(request, group, syntax, name, nil, first)
        for (index, value) in values.enumerated().dropFirst() {
            ippSetString(request, &attribute, Int32(index), value)
        }
    }

    // MARK: Reading libcups' failure reports

    /// After httpReconnect2 failed. Measured with libcups 2.4.2: a refused
    /// port gives cupsLastError 0x502 "Host is down" and httpError EHOSTDOWN
    /// (libcups folds ECONNREFUSED into it); a connect that never completes
    /// gives "Connection timed out", ETIMEDOUT; a TLS failure gives
    /// IPP_STATUS_ERROR_CUPS_PKI with GnuTLS's message, also when the
    /// printer accepted but never answered the handshake (after 10 s).
    private static func connectFailure(_ http: OpaquePointer, endpoint: IPPEndpoint,
                                       control: ExchangeControl) -> ContactError {
        let uri = endpoint.uri
        let error = httpError(http)
        let message = lastErrorString()
        if control.isCancelled && !control.gaveUpOnDeadline { return .cancelled(uri: uri) }
        if cupsLastError() == IPP_STATUS_ERROR_CUPS_PKI {
            // libcups gives the handshake at least 10 s whatever we ask; a
            // handshake that failed that late is a printer that never answered.
            if control.elapsed >= .milliseconds(9500) || control.gaveUpOnDeadline {
                return .timedOut(uri: uri, seconds: ExchangeControl.seconds(control.elapsed), connected: true)
            }
            return .tls(uri: uri, detail: message ?? "the TLS handshake failed")
        }
        if error == ETIMEDOUT || control.gaveUpOnDeadline {
            return .timedOut(uri: uri, seconds: control.timeoutSeconds, connected: false)
        }
        if error == EHOSTDOWN || error == ECONNREFUSED {
            return .refused(uri: uri)
        }
        return .unreachable(uri: uri, detail: message ?? String(cString: strerror(error)))
    }

    /// After cupsDoRequest returned no reply. Measured with libcups 2.4.2:
    /// an HTTP error status (501 from a web server) leaves it in
    /// httpGetStatus; an HTTP 401 ends as status 1000 "Unauthorized"
    /// (authorization canceled); a reply that is not IPP (text/html, or
    /// unreadable IPP) gives status -1 with httpError EINVAL and the reply's
    /// Content-Type still readable; a peer that closed gives EPIPE or
    /// ECONNRESET; our callback giving up gives ETIMEDOUT. cupsLastErrorString
    /// is useless here ("Success", "No such file or directory").
    private static func exchangeFailure(_ http: OpaquePointer, endpoint: IPPEndpoint,
                                        control: ExchangeControl) -> ContactError {
        let uri = endpoint.uri
        if control.isCancelled && !control.gaveUpOnDeadline { return .cancelled(uri: uri) }
        if control.gaveUpOnDeadline {
            return .timedOut(uri: uri, seconds: control.timeoutSeconds, connected: true)
        }
        let status = Int(httpGetStatus(http).rawValue)
        switch status {
        case 401, 403, Int(HTTP_STATUS_CUPS_AUTHORIZATION_CANCELED.rawValue):
            return .authenticationRequired(uri: uri)
        case 426:
            return .tls(uri: uri, detail: "the printer requires encryption and the upgrade to TLS failed")
        case 100..<1000 where status != 200:
            let phrase = httpStatus(httpGetStatus(http)).map { String(cString: $0) } ?? ""
            return .notIPPPrinter(uri: uri, reason: "it answered the IPP request with HTTP \(status) \(phrase)"
                .trimmingCharacters(in: .whitespaces))
        default:
            break
        }
        let contentType = httpGetField(http, HTTP_FIELD_CONTENT_TYPE).map { String(cString: $0) } ?? ""
        if !contentType.isEmpty {
            if contentType.lowercased().hasPrefix("application/ipp") {
                return .notIPPPrinter(uri: uri, reason: "its reply claims to be IPP but cannot be read")
            }
            return .notIPPPrinter(uri: uri, reason: "its reply is \(contentType), not IPP")
        }
        let error = httpError(http)
        if error == ETIMEDOUT {
            return .timedOut(uri: uri, seconds: control.timeoutSeconds, connected: true)
        }
        if error == EPIPE || error == ECONNRESET || error == 0 || error == EINVAL {
            return .notIPPPrinter(uri: uri, reason: "it closed the connection without an IPP reply")
        }
        return .unreachable(uri: uri, detail: lastErrorString() ?? String(cString: strerror(error)))
    }

    private static func lastErrorString() -> String? {
        guard let text = cupsLastErrorString() else { return nil }
        let string = String(cString: text)
        return string.isEmpty ? nil : string
    }
}
