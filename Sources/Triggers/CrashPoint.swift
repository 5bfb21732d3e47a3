import Glibc

/// A step at which a test kills the agent, as a power cut or the OOM killer
/// would, to see what the next start makes of the state left on disk. The
/// environment variable `KIOSKPRINT_TEST_CRASH_AT` names the step; reaching
/// it sends the process SIGKILL. Unset, as in every real run, nothing happens.
enum CrashPoint: String, Sendable {
    /// A finished file has just been linked into `done/` and is not yet
    /// unlinked from `processing/` (``ClaimedFile/finish()``).
    case finishLinked = "finish-linked"

    /// Read once: the environment does not change while the agent runs.
    private static let chosen: String? = getenv("KIOSKPRINT_TEST_CRASH_AT").map { String(cString: $0) }

    func reached() {
        if Self.chosen == rawValue { kill(getpid(), SIGKILL) }
    }
}
