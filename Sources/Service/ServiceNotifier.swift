import CSystemd

/// Tells systemd how the agent is doing (`Type=notify`): ready, a status
/// line for `systemctl status`, watchdog pings, stopping. Outside systemd
/// (no `NOTIFY_SOCKET`) every call does nothing, so the same binary runs by
/// hand and as a service.
public struct ServiceNotifier: Sendable {
    public init() {}

    /// The agent is up: systemd starts units ordered after it.
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    /// A line `systemctl status` shows.
    public func status(_ text: String) { send("STATUS=\(text)") }

    /// Stopping on request: systemd waits instead of counting it a failure.
    public func stopping() { send("STOPPING=1") }

    /// "Still alive", within `WatchdogSec`.
    public func watchdog() { send("WATCHDOG=1") }

    /// How often to ping the watchdog (half its timeout), or nil when the
    /// unit has none.
    public var watchdogInterval: Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(microseconds / 2))
    }

    private func send(_ state: String) { _ = sd_notify(0, state) }
}
