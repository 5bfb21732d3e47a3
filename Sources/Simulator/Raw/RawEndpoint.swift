/// Where a simulated raw printer can be reached.
public enum RawEndpoint: Sendable, Hashable {
    /// A TCP port on 127.0.0.1, as a network printer's port 9100.
    case tcp(port: Int)
    /// The slave side of a pseudo-terminal (`/dev/pts/N`), standing in for a
    /// serial or USB-serial line.
    case serial(path: String)

    /// The URI the agent saves for this printer: `socket://127.0.0.1:PORT`,
    /// or `serial:///dev/pts/N?baud=115200` (a pseudo-terminal ignores the
    /// speed, but accepts setting it, as the agent does).
    public func uri(baud: Int = 115_200) -> String {
        switch self {
        case .tcp(let port): "socket://127.0.0.1:\(port)"
        case .serial(let path): "serial://\(path)?baud=\(baud)"
        }
    }
}
