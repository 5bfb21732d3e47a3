public import Foundation
import PrintModel

/// Reading the agent's configuration file: where it is, and turning its
/// text into an ``AgentConfiguration`` or every problem in it.
public enum ConfigurationFile {
    /// The file the agent reads when no `--config` is given.
    public static let defaultPath = "/etc/kioskprint/kioskprint.toml"

    /// Which file to read: the explicit one, else `$KIOSKPRINT_CONFIG`, else
    /// the default when it exists; nil means "run on built-in defaults".
    public static func locate(explicit: String?,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let explicit { return explicit }
        if let fromEnvironment = environment["KIOSKPRINT_CONFIG"], !fromEnvironment.isEmpty { return fromEnvironment }
        return FileManager.default.fileExists(atPath: defaultPath) ? defaultPath : nil
    }

    /// Reads and checks the file at `path`.
    public static func load(_ path: String) throws(ConfigurationError) -> AgentConfiguration {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path)
                ? "it cannot be read; check its permissions (the service runs as the kioskprint user)."
                : "there is no such file. Give the right path with --config, or copy an example from kiosk-config/."
            throw ConfigurationError(path: path, problems: [ConfigurationProblem(message: reason)])
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw ConfigurationError(path: path, problems: [ConfigurationProblem(message: "it is not UTF-8 text.")])
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let folder = ((absolute as NSString).standardizingPath as NSString).deletingLastPathComponent
        return try parse(text, source: path, relativeTo: folder)
    }

    /// Parses configuration text; relative paths are taken from `folder`.
    public static func parse(_ text: String, source: String,
                             relativeTo folder: String) throws(ConfigurationError) -> AgentConfiguration {
        let root: ConfigNode
        do { root = try TOMLText.parse(text) } catch {
            throw ConfigurationError(path: source, problems: [error])
        }
        let log = ProblemLog()
        let reader = ConfigurationReader(log: log, folder: folder)
        let configuration = reader.read(TableReader(path: "", node: root, log: log), source: source)
        guard log.problems.isEmpty else { throw ConfigurationError(path: source, problems: log.problems) }
        return configuration
    }
}
