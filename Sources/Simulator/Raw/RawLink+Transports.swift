import Glibc

extension RawLink {
    /// A link listening on 127.0.0.1:`port` (0: a port the system picks),
    /// with the small receive buffer `LoopbackListenSocket.open` describes.
    static func listening(engine: Engine, port: Int, receiveBuffer: Int, bytesPerSecond: Int? = nil) throws -> RawLink {
        let (fd, actual) = try LoopbackListenSocket.open(port: port, receiveBuffer: receiveBuffer)
        do {
            return try RawLink(engine: engine, transport: .listener(fd), endpoint: .tcp(port: actual),
                               bytesPerSecond: bytesPerSecond)
        } catch {
            close(fd)
            throw error
        }
    }

    /// A link on a new pseudo-terminal; the agent opens its slave path.
    /// `bytesPerSecond` drains it at a serial line's speed, which a
    /// pseudo-terminal itself does not have.
    static func pseudoTerminal(engine: Engine, bytesPerSecond: Int? = nil) throws -> RawLink {
        let terminal = try PseudoTerminal.open()
        do {
            return try RawLink(engine: engine, transport: .pseudoTerminal(master: terminal.master, slave: terminal.slave),
                               endpoint: .serial(path: terminal.path), bytesPerSecond: bytesPerSecond)
        } catch {
            close(terminal.master)
            close(terminal.slave)
            throw error
        }
    }
}
