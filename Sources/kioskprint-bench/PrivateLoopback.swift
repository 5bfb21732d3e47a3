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
enum PrivateLoopback {
    /// Set in the re-executed process, so it does not re-execute again.
    static let marker = "KIOSKPRINT_BENCH_PRIVATE_LOOPBACK"
    /// The flag that keeps the machine's loopback, to measure in company.
    static let sharedFlag = "--shared-loopback"

    /// Whether this process runs in its own namespace.
    static var isActive: Bool { ProcessInfo.processInfo.environment[marker] != nil }

    /// Re-executes this program under `unshare --net` with its loopback up
    /// (the same process id: unshare and sh both exec). Returns only when it
    /// does not: already inside, asked not to, or the exec failed.
    static func enterUnlessShared() {
        guard !isActive, !CommandLine.arguments.contains(sharedFlag) else { return }
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else { return }
        let program = String(decoding: path.prefix(length).map(UInt8.init(bitPattern:)), as: UTF8.self)
        setenv(marker, "1", 1)
        let arguments = ["unshare", "--net", "--", "sh", "-c", "ip link set lo up && exec \"$0\" \"$@\"", program]
            + CommandLine.arguments.dropFirst()
        let argv = arguments.map { strdup($0) } + [nil]
        execvp("unshare", argv)
        // Still here: the exec failed. Measure on the shared loopback rather than not at all.
        unsetenv(marker)
        argv.forEach { free($0) }
        let reason = String(cString: strerror(errno))
        let message = "kioskprint-bench: could not enter a private network namespace (\(reason)); "
            + "measuring on the shared loopback.\n"
        FileHandle.standardError.write(Data(message.utf8))
    }
}
