import Foundation

/// This process's TCP client sockets to a loopback port, read from
/// /proc/net/tcp and tcp6 as `ss -p` would: how the tests see, from outside
/// the IPP module, how many connections it made to a printer. Agents that
/// other tests run find the lab's printers too: their sockets are left out.
struct LoopbackSockets: Equatable {
    /// A client socket: its own port and its TCP state (01 established, 06 time-wait, ...).
    struct Socket: Hashable {
        var localPort: Int
        var state: String
    }

    let sockets: Set<Socket>

    /// The sockets whose far end is `port` (the printer's side of them is left out).
    init(to port: Int) throws {
        var found = Set<Socket>()
        let own = Self.ownSocketInodes()
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to the end: /proc files report a size of 0.
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: table))
            defer { try? handle.close() }
            let text = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3,
                      let remote = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                      let local = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                      remote == port, fields.count > 9, own.contains(String(fields[9])) else { continue }
                found.insert(Socket(localPort: local, state: String(fields[3])))
            }
        }
        sockets = found
    }

    /// The inodes of the sockets among this process's open files.
    private static func ownSocketInodes() -> Set<String> {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(fds.compactMap { fd -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst(8).dropLast())
        })
    }

    /// Client ports that are not among `earlier`'s: connections made since.
    func opened(since earlier: LoopbackSockets) -> Set<Int> {
        Set(sockets.map(\.localPort)).subtracting(earlier.sockets.map(\.localPort))
    }

    /// Client sockets still connected.
    var established: Set<Int> { Set(sockets.filter { $0.state == "01" }.map(\.localPort)) }
}
