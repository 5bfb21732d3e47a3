public import ArgumentParser
import Foundation

/// What every command that starts a PrinterLab shares: `--shared-loopback`,
/// and the one way in (root checked, the private network namespace entered,
/// SIGPIPE ignored) that each of them takes before it measures anything.
public struct LabOptions: ParsableArguments {
    @Flag(name: .customLong("shared-loopback"), help: ArgumentHelp(
        "Measure on the machine's own loopback, beside whatever else runs there.",
        discussion: "By default the command runs in a private network namespace, so that only its own lab's "
            + "printers are on its loopback; other labs (tests, demos) would otherwise be found and contacted too."))
    public var sharedLoopback = false

    public init() {}

    /// Checks for root (the lab's avahi-daemon and cupsd need it: `reason`
    /// says which), then, unless `--shared-loopback`, re-executes this program
    /// in a private network namespace (it returns in the new process), and
    /// ignores SIGPIPE: a closed standard output (`| head`) would otherwise
    /// end the process before the lab's clean-up and leave its daemons running.
    public func enterLab(_ command: String, needsRootFor reason: String) throws {
        guard geteuid() == 0 else {
            throw BenchError("\(command) needs root: \(reason). Run it again with sudo.")
        }
        if !sharedLoopback { PrivateLoopback.enter(commandName: command) }
        signal(SIGPIPE, SIG_IGN)
    }
}
