import KioskConfiguration

/// Reading a configuration's text as `/etc/kioskprint/kioskprint.toml` would
/// be read, for the suites of one table each.
protocol ReadsConfiguration {}

extension ReadsConfiguration {
    func read(_ text: String) -> Result<AgentConfiguration, ConfigurationError> {
        Result { () throws(ConfigurationError) in
            try ConfigurationFile.parse(text, source: "kioskprint.toml", relativeTo: "/etc/kioskprint")
        }
    }

    /// Every problem found, as `key: message`; none when the text is good.
    func problems(_ text: String) -> [String] {
        guard case .failure(let error) = read(text) else { return [] }
        return error.problems.map(\.description)
    }
}
