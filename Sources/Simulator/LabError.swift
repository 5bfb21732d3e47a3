/// Why the simulated printers could not be started. Each says what to do.
public enum LabError: Error, CustomStringConvertible {
    case missingProgram(String)
    case needsRoot
    case didNotStart(program: String, log: String)
    case timedOut(String)
    case notifySocket(String)
    /// A program ran to its end without doing what was asked of it.
    case failed(program: String, reason: String)

    public var description: String {
        switch self {
        case .missingProgram(let program):
            let package = [
                "ippeveprinter": "cups-ipp-utils", "ipptool": "cups-ipp-utils", "avahi-daemon": "avahi-daemon",
                "avahi-publish": "avahi-utils", "dbus-daemon": "dbus-daemon", "unshare": "util-linux",
                "lprint": "lprint", "socat": "socat",
            ][program] ?? program
            return "'\(program)' is not installed. Install it with: sudo apt-get install \(package) "
                + "(or run scripts/install-deps.sh, which installs everything KioskPrint needs)."
        case .needsRoot:
            return "The simulated printers need root: they run a private avahi-daemon, which only root may start. "
                + "Run again with sudo."
        case .didNotStart(let program, let log):
            return "\(program) did not start. Its last words:\n\(log)"
        case .timedOut(let what):
            return "\(what) did not become ready in time."
        case .notifySocket(let reason):
            return "The notify socket could not be made: \(reason). Check that /tmp is writable."
        case .failed(let program, let reason):
            return "\(program) failed: \(reason)"
        }
    }
}
