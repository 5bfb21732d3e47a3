import Glibc

/// Whether some process still has a file in the watched folder open for
/// writing, which the scan at start (and after a lost event, and when the
/// folder comes back) must leave alone: its IN_CLOSE_WRITE, which comes once
/// the writer closes it, claims it then, as the folder is watched before it
/// is listed.
///
/// Asked of the kernel with a read lease (`fcntl(F_SETLEASE, F_RDLCK)`),
/// let go at once: Linux refuses one with EAGAIN while any descriptor for
/// the file is open for writing, whoever holds it, and readers do not count.
/// Not /proc/*/fd (a walk of every process's descriptors per file), nor the
/// file's size or time seen twice (a guess: a writer that pauses longer is
/// still taken half-written, and a file left for a second look needs a timer
/// to be looked at again).
///
/// Linux grants a lease only to the file's owner or to a process with
/// CAP_LEASE: root has it, and the shipped unit gives it to the agent's user
/// (measured on the build machine's Linux 6.18: EACCES for another user's file
/// without it, granted with it as an ambient capability).
/// Without it, or on a filesystem without leases, the answer is
/// `.cannotTell` and the file is claimed as before.
enum OpenForWriting: Equatable {
    case no
    case yes
    /// The kernel refused the lease for another reason (its errno).
    case cannotTell(Int32)
}

extension Directory {
    /// Whether the regular file `name` is open for writing anywhere.
    /// Opened without following a link and without blocking (a pipe put in
    /// its place meanwhile); anything not a regular file once opened, or
    /// not readable by the agent, counts as not open: the claim then
    /// refuses it, or reading it fails, as before.
    func openForWriting(_ name: EntryName) -> OpenForWriting {
        let file = name.withCString { openat(fd, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard file >= 0 else { return .no }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .no }
        // A writer opening the file while the lease is held breaks it, and the kernel signals the holder:
        // SIGIO by default, which would end the agent. SIGURG is ignored unless handled, and nothing here handles it.
        _ = fcntl(file, Self.setSignal, SIGURG)
        guard fcntl(file, Self.setLease, Int32(F_RDLCK)) == 0 else {
            let code = errno
            return code == EAGAIN ? .yes : .cannotTell(code)
        }
        _ = fcntl(file, Self.setLease, Int32(F_UNLCK))
        return .no
    }

    /// F_SETLEASE and F_SETSIG, which Swift's Glibc module leaves out (they need _GNU_SOURCE).
    private static let setLease: Int32 = 1024
    private static let setSignal: Int32 = 10
}
