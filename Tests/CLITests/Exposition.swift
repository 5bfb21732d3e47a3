import Foundation
import Testing

/// Prometheus's text exposition as the agent served it, read back series by
/// series, so that the tests look values up by the names and labels the
/// agent really exported.
struct Exposition {
    struct Sample: Hashable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    let samples: [Sample]

    init(_ text: String) {
        samples = text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
            else { return nil }
            let series = line[..<space]
            guard let brace = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
            return Sample(name: String(series[..<brace]), labels: Self.labels(series[series.index(after: brace)..<series.index(before: series.endIndex)]),
                          value: value)
        }
    }

    /// `a="x",b="y"` (the agent's label values hold no quotes or commas in these tests).
    static func labels(_ text: Substring) -> [String: String] {
        var labels: [String: String] = [:]
        for pair in text.split(separator: "\",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            labels[String(parts[0])] = String(parts[1].drop(while: { $0 == "\"" }).reversed().drop(while: { $0 == "\"" }).reversed())
        }
        return labels
    }

    /// The samples of `name` whose labels include `matching`.
    func samples(_ name: String, _ matching: [String: String] = [:]) -> [Sample] {
        samples.filter { sample in sample.name == name && matching.allSatisfy { sample.labels[$0.key] == $0.value } }
    }

    /// The one sample of `name` with these labels; a failed expectation if there is not exactly one.
    func value(_ name: String, _ matching: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) -> Double? {
        let found = samples(name, matching)
        #expect(found.count == 1, "\(found.count) samples of \(name) \(matching)", sourceLocation: sourceLocation)
        return found.count == 1 ? found[0].value : nil
    }
}

/// A `promtool test rules` file for the shipped alert rules, whose input
/// series carry the names and labels of samples the agent exported, and
/// whose expected alerts carry the annotations the rules file writes.
struct AlertRuleTest {
    let rulesFile: String
    /// What Prometheus adds to every scraped series.
    let scrapeLabels = ["instance": "kiosk-1:9180", "job": "kioskprint"]

    struct Input {
        let sample: Exposition.Sample
        let values: String
    }

    struct Expectation {
        let alert: String
        let at: String
        /// The labels of each expected alert (before `alertname`), none for "does not fire".
        let firing: [[String: String]]
        /// `$value` in the annotation, for each firing alert.
        var value = ""
    }

    func series(_ sample: Exposition.Sample) -> String {
        let labels = sample.labels.merging(scrapeLabels) { own, _ in own }
        return sample.name + "{" + labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",") + "}"
    }

    /// Labels of an alert from `sample` plus the scrape's, `keeping` only those
    /// an aggregation keeps (nil: all), plus the rule's own.
    func alertLabels(_ sample: Exposition.Sample, keeping: Set<String>? = nil, severity: String) -> [String: String] {
        var labels = sample.labels.merging(scrapeLabels) { own, _ in own }
        if let keeping { labels = labels.filter { keeping.contains($0.key) } }
        labels["severity"] = severity
        return labels
    }

    /// One test group: the inputs, then each expectation at its time.
    func group(_ inputs: [Input], _ expectations: [Expectation]) throws -> String {
        var text = "  - interval: 1m\n    input_series:\n"
        for input in inputs {
            text += "      - series: '\(series(input.sample).replacingOccurrences(of: "'", with: "''"))'\n        values: '\(input.values)'\n"
        }
        text += "    alert_rule_test:\n"
        for expectation in expectations {
            text += "      - eval_time: \(expectation.at)\n        alertname: \(expectation.alert)\n"
            if expectation.firing.isEmpty { text += "        exp_alerts: []\n"; continue }
            text += "        exp_alerts:\n"
            let summary = try summaryTemplate(of: expectation.alert)
            for labels in expectation.firing {
                text += "          - exp_labels:\n"
                for (key, value) in labels.sorted(by: { $0.key < $1.key }) { text += "              \(key): \(Self.quoted(value))\n" }
                text += "            exp_annotations:\n              summary: \(Self.quoted(Self.render(summary, labels, value: expectation.value)))\n"
            }
        }
        return text
    }

    func file(_ groups: [String]) -> String {
        "rule_files:\n  - \(Self.quoted(rulesFile))\nevaluation_interval: 1m\ntests:\n" + groups.joined()
    }

    /// The `summary` annotation of `alert` as the rules file writes it.
    func summaryTemplate(of alert: String) throws -> String {
        let rules = try String(contentsOfFile: rulesFile, encoding: .utf8)
        let block = try #require(rules.components(separatedBy: "- alert: \(alert)\n").dropFirst().first, "no alert \(alert)")
            .components(separatedBy: "- alert:")[0]
        let line = try #require(block.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("summary:") })
        let quoted = line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        return String(quoted.dropFirst().dropLast())
    }

    /// Fills `{{ $labels.x }}` and `{{ $value }}` as Prometheus would for these labels.
    static func render(_ template: String, _ labels: [String: String], value: String) -> String {
        var text = template.replacingOccurrences(of: "{{ $value }}", with: value)
        for (key, label) in labels { text = text.replacingOccurrences(of: "{{ $labels.\(key) }}", with: label) }
        return text
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
