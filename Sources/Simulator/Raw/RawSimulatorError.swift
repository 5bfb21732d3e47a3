import Glibc

/// Why a simulated raw printer could not be started or waited for. Each says what to do.
public enum RawSimulatorError: Error, CustomStringConvertible, Equatable {
    /// A system call failed: which one, and errno.
    case system(String, Int32)
    /// The port asked for is taken.
    case portInUse(Int)
    /// A bounded wait ended before the event: what was awaited and what was seen.
    case timedOut(waitingFor: String, seen: String)

    public var description: String {
        switch self {
        case .system(let call, let code):
            "\(call) failed: \(String(cString: strerror(code))). Check the process's open-file limit "
                + "and that /dev/ptmx and loopback networking are available."
        case .portInUse(let port):
            "127.0.0.1:\(port) is already in use. Start the simulator on port 0 (the system picks a free one) "
                + "or stop whatever listens there."
        case .timedOut(let awaited, let seen):
            "The simulated printer did not see \(awaited) in time; it saw \(seen). The client may not have sent it, "
                + "or the simulator was told to stop reading."
        }
    }
}
