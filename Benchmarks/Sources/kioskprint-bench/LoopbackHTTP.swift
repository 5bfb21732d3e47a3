import BenchSupport
import Foundation

/// A minimal HTTP/1.1 client on one kept-alive loopback connection, with
/// blocking sockets: the bench times requests, not a client library. It
/// reads exactly the answer's `Content-Length` bytes; an event stream is
/// read line by line with `readLine`.
// One thread reads and writes; another may only call shutDown (shutdown(2) is safe from any thread).
final class LoopbackHTTP: @unchecked Sendable {
    private let socket: Int32
    /// What has been received and not yet read.
    private var buffer: [UInt8] = []
    /// recv's landing space, one for the connection's life: a request's answer takes a few recvs,
    /// and a fresh 64 KB array for each was most of the client's own allocation.
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    init(port: Int) throws {
        socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw BenchError("connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(socket) }

    /// Sends one request and reads its answer: the status and the body.
    func send(_ method: String, _ path: String, headers: [String: String], body: [UInt8] = []) throws -> (status: Int, body: [UInt8]) {
        try write(head(method, path, headers: headers, length: body.count) + body)
        let head = try readHead()
        let length = head.headers["content-length"].flatMap(Int.init) ?? 0
        return (head.status, try read(count: length))
    }

    /// Sends a request and reads only its head: for an event stream, read on with `readLine`.
    func open(_ path: String, headers: [String: String]) throws -> Int {
        try write(head("GET", path, headers: headers, length: nil))
        return try readHead().status
    }

    /// The next line of the answer (without its line end); nil when the connection ends.
    func readLine() throws -> String? {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[..<end]
                buffer.removeSubrange(...end)
                return String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            }
            guard try fill() else { return nil }
        }
    }

    private func head(_ method: String, _ path: String, headers: [String: String], length: Int?) -> [UInt8] {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let length { text += "Content-Length: \(length)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    private func readHead() throws -> (status: Int, headers: [String: String]) {
        guard let statusLine = try readLine() else { throw BenchError("the connection closed before an answer") }
        var headers: [String: String] = [:]
        while let line = try readLine(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0, headers)
    }

    private func read(count: Int) throws -> [UInt8] {
        while buffer.count < count { guard try fill() else { throw BenchError("the connection closed mid-answer") } }
        defer { buffer.removeFirst(count) }
        return Array(buffer.prefix(count))
    }

    private func fill() throws -> Bool {
        let got = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if got < 0 { throw BenchError("recv: \(String(cString: strerror(errno)))") }
        buffer.append(contentsOf: chunk[..<got])
        return got > 0
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let wrote = bytes[sent...].withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard wrote > 0 else { throw BenchError("send: \(String(cString: strerror(errno)))") }
            sent += wrote
        }
    }

    /// Ends the connection from this side (a reader blocked on it wakes with its end).
    func shutDown() { shutdown(socket, Int32(SHUT_RDWR)) }
}
