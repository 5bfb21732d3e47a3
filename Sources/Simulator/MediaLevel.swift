import Foundation

extension RunningPrinter {
    /// Sets how much paper the printer's first tray (or roll) holds, through
    /// ippeveprinter's /media web form: 0 puts `media-empty` into
    /// printer-state-reasons (and `media-needed` while a job waits for
    /// paper: ippeveprinter holds it until the paper is back), 1-24 `media-low`,
    /// 25 and more clear them. ippeveprinter offers 250, 125, 50, 25, 5 and 0.
    ///
    /// The form also reloads the tray: media-ready becomes `size` (by default
    /// the attribute file's first media-ready value) and media-col-ready that
    /// named size, with `type` when given. A roll's cut-length range thus
    /// leaves media-col-ready; start a printer of its own for this.
    public func setMediaLevel(_ level: Int, size: String? = nil, type: String? = nil) async throws {
        guard let size = size ?? simulated.attributeValues("media-ready").first else {
            throw RecordingError.mediaFormFailed(printer: name, detail: "its attribute file declares no media-ready")
        }
        var query = ["size0=\(Self.formEncoded(size))", "level0=\(level)"]
        if let type { query.append("type0=\(Self.formEncoded(type))") }
        let path = "/media?" + query.joined(separator: "&")
        let port = port, name = name
        let (status, body) = try await offloaded { try Loopback.get(port: port, path: path) }
        guard status == 200 else {
            throw RecordingError.mediaFormFailed(printer: name, detail: "GET \(path) answered HTTP \(status)")
        }
        // The page reports a form it cannot serve as "<p>Error: ...</p>" with status 200.
        if let range = body.range(of: "Error: ") {
            let detail = body[range.upperBound...].prefix { $0 != "<" }
            throw RecordingError.mediaFormFailed(printer: name, detail: String(detail))
        }
    }

    private static func formEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

extension SimulatedPrinter {
    /// The values of attribute `name` in the attribute file (`ATTR syntax name v1,v2`).
    func attributeValues(_ name: String) -> [String] {
        for line in attributes.split(separator: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 3)
            if words.count == 4, words[0] == "ATTR", words[2] == name {
                return words[3].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        return []
    }
}

extension Loopback {
    /// A plain HTTP/1.0 GET to 127.0.0.1:`port`; the status code and the body
    /// as text. Blocking, bounded by `timeout` per read: call it offloaded.
    static func get(port: Int, path: String, timeout: Duration = .seconds(5)) throws -> (Int, String) {
        guard let fd = Loopback.connect(port: port) else { throw LabError.timedOut("a connection to 127.0.0.1:\(port) for GET \(path)") }
        defer { close(fd) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))

        let request = Array("GET \(path) HTTP/1.0\r\nHost: localhost:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { throw LabError.timedOut("sending GET \(path) to 127.0.0.1:\(port)") }

        // Until the server closes, or the page has ended (a server that keeps
        // the connection open would otherwise cost the whole timeout).
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { reply += buffer[0..<count] }
            if count <= 0 || String(decoding: reply.suffix(64), as: UTF8.self).contains("</html>") { break }
        }
        let text = String(decoding: reply, as: UTF8.self)
        let statusLine = text.prefix { $0 != "\r" && $0 != "\n" }.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw LabError.timedOut("an HTTP reply to GET \(path) from 127.0.0.1:\(port) (got \(reply.count) bytes)")
        }
        return (status, text)
    }
}
