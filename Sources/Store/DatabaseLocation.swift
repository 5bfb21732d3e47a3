public import Foundation

/// Where the database lives when no `--database` is given.
///
/// In order: the `KIOSKPRINT_DATABASE` environment variable; the state folder
/// systemd gives a service (`$STATE_DIRECTORY`, from `StateDirectory=`);
/// `/var/lib/kioskprint` for root, so an administrator's `sudo kioskprint ...`
/// and the service share one database; else the user's own state folder
/// (`$XDG_STATE_HOME/kioskprint`, by default `~/.local/state/kioskprint`).
public enum DatabaseLocation {
    public static let fileName = "kioskprint.sqlite"
    public static let environmentVariable = "KIOSKPRINT_DATABASE"
    public static let serviceDirectory = "/var/lib/kioskprint"

    /// The path to use, given an explicit choice (the `--database` option) and the environment.
    public static func resolve(explicit: String? = nil,
                               environment: [String: String] = ProcessInfo.processInfo.environment,
                               isRoot: Bool = geteuid() == 0,
                               home: String = NSHomeDirectory()) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let chosen = environment[environmentVariable], !chosen.isEmpty { return chosen }
        // systemd may list several folders separated by colons; ours is the first.
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return "\(state)/\(fileName)"
        }
        if isRoot { return "\(serviceDirectory)/\(fileName)" }
        let stateHome = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.local/state"
        return "\(stateHome)/kioskprint/\(fileName)"
    }
}
