import CCups
import Foundation
import PrintModel

/// One open libcups connection (`http_t`) to a printer, between exchanges.
/// The pointer stays inside the IPP module; one exchange uses it at a time,
/// which `ConnectionCache` ensures by lending it to one caller only.
final class KeptConnection: @unchecked Sendable { // used by one thread at a time: the cache lends it out once
    let http: OpaquePointer
    let key: ConnectionKey
    /// The certificate presented in the handshake (ipps), already held against the pin.
    let certificate: CertificateFingerprint?
    /// When it was last given back; set under the cache's lock.
    var idleSince: ContinuousClock.Instant = .now

    init(_ http: OpaquePointer, key: ConnectionKey, certificate: CertificateFingerprint?) {
        self.http = http
        self.key = key
        self.certificate = certificate
    }

    /// Whether another request may follow on it: the last reply was read to
    /// its end and the printer did not say it closes.
    var canCarryAnother: Bool {
        if httpGetState(http) != HTTP_STATE_WAITING { return false }
        if let connection = httpGetField(http, HTTP_FIELD_CONNECTION),
           String(cString: connection).lowercased() == "close" { return false }
        return httpGetReady(http) == 0
    }

    /// False when the printer closed its end while the connection sat idle
    /// (printers drop idle keep-alive connections, and a restarted printer
    /// dropped all of them), or sent something unasked: either way the
    /// next reply would not be ours. Does not wait.
    var isOpenAndQuiet: Bool {
        let fd = httpGetFd(http)
        guard fd >= 0, httpGetReady(http) == 0 else { return false }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// Closes it, waiting at most half a second for a TLS peer's goodbye
    /// (GnuTLS waits for the printer's close_notify; a hung printer sends none).
    /// Call on a pool worker: libcups may write, and SIGPIPE is blocked there.
    func close() {
        httpSetTimeout(http, 0.5, { _, _ in 0 }, nil)
        httpClose(http)
    }

    /// Leaves no pointer to an exchange's control behind while it is idle.
    func detachTimeout() {
        httpSetTimeout(http, 30, nil, nil)
    }
}
