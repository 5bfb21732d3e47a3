import Foundation

/// Moves the benchmark into a network namespace of its own before anything
/// starts, so that its loopback carries only its own lab.
///
/// Every PrinterLab on a machine announces on the one loopback interface and
/// all their avahi-daemons hear one another: while other labs run (tests,
/// demos), a discover here would also find, resolve and contact their
/// printers, and the figures would measure their number rather than
/// KioskPrint. A fresh namespace has a loopback of its own; the lab's D-Bus
/// socket is a file path, which namespaces do not affect.
///
/// The commands enter it through `LabOptions.enterLab(_:needsRootFor:)`.
public enum PrivateLoopback {
    /// Set in the re-executed process, so it does not re-execute again.
    public static let marker = "KIOSKPRINT_BENCH_PRIVATE_LOOPBACK"

    /// Whether this process runs in its own namespace.
    public static var isActive: Bool { ProcessInfo.processInfo.environment[marker] != nil }

    /// Re-executes this program, with the same arguments, under
    /// `unshare --net` with its loopback up (the same process id: unshare and
    /// sh both exec). Returns only when it does not: already inside, or the
    /// exec failed (then it says so and the bench measures on the shared loopback).
    public static func enter(commandName: String) {
        guard !isActive, let program = try? ownExecutablePath() else { return }
        setenv(marker, "1", 1)
        let arguments = ["unshare", "--net", "--", "sh", "-c", "ip link set lo up && exec \"$0\" \"$@\"", program]
            + CommandLine.arguments.dropFirst()
        let argv = arguments.map { strdup($0) } + [nil]
        execvp("unshare", argv)
        // Still here: the exec failed. Measure on the shared loopback rather than not at all.
        unsetenv(marker)
        argv.forEach { free($0) }
        let reason = String(cString: strerror(errno))
        let message = "\(commandName): could not enter a private network namespace (\(reason)); "
            + "measuring on the shared loopback. Is util-linux's unshare installed?\n"
        FileHandle.standardError.write(Data(message.utf8))
    }
}
