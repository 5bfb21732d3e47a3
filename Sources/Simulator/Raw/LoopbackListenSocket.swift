import Glibc

/// The listening socket of a simulated device on 127.0.0.1, as a network
/// printer's port 9100 would be.
enum LoopbackListenSocket {
    /// Binds 127.0.0.1:`port` (0: a port the system picks) and listens;
    /// returns the descriptor and the port bound.
    ///
    /// `receiveBuffer` is the accepted connections' receive buffer in bytes
    /// (the kernel doubles it for its bookkeeping), kept small as a
    /// printer's is, so that a device that stops reading blocks its client
    /// after a few kilobytes, not after the megabytes loopback would
    /// otherwise buffer.
    static func open(port: Int, receiveBuffer: Int?) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RawSimulatorError.system("socket", errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if let receiveBuffer {
            // Set before listen(): accepted sockets inherit it, and the window
            // scale is agreed in the handshake.
            var size = Int32(receiveBuffer)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }

        let bound = Loopback.withAddress(port: port) { bind(fd, $0, $1) }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw code == EADDRINUSE ? RawSimulatorError.portInUse(port) : RawSimulatorError.system("bind", code)
        }
        guard listen(fd, 8) == 0 else {
            let code = errno
            close(fd)
            throw RawSimulatorError.system("listen", code)
        }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
