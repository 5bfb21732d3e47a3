import Foundation
/// The value syntaxes a configuration file uses besides TOML's own:
/// durations ("30ms", "1.5s", "2m", "30d") and sizes ("512KB", "10MB").
public enum ConfigValues {
    /// Why a duration or size was refused, in words for the file's author.
    public struct Refusal: Error, Sendable {
        public var message: String
    }

    /// Parses a duration with its unit: ms, s, m, h or d (days).
    public static func duration(_ text: String) throws(Refusal) -> Duration {
        let (number, unit) = split(text)
        guard let value = Double(number), value >= 0, value.isFinite else {
            throw Refusal(message: "\"\(text)\" is not a duration; write a number and a unit, e.g. \"30ms\", \"1.5s\", \"2m\".")
        }
        let milliseconds: Double
        switch unit {
        case "ms": milliseconds = value
        case "s": milliseconds = value * 1000
        case "m", "min": milliseconds = value * 60_000
        case "h": milliseconds = value * 3_600_000
        case "d": milliseconds = value * 86_400_000
        case "": throw Refusal(message: "\"\(text)\" has no unit; write it as \"\(number)ms\" or \"\(number)s\".")
        default: throw Refusal(message: "\"\(text)\": unknown unit \"\(unit)\"; use ms, s, m, h or d.")
        }
        // Found by the fuzzer: a duration of 10^110 ms trapped converting to Int64.
        guard milliseconds <= Self.longestDuration else {
            throw Refusal(message: "\"\(text)\" is longer than any setting needs (at most 100 years); write a shorter duration.")
        }
        return .microseconds(Int64((milliseconds * 1000).rounded()))
    }

    /// A hundred years, in milliseconds: more than any setting needs, far less than Int64 microseconds hold.
    static let longestDuration = 100 * 365.25 * 86_400_000.0

    /// Parses a size in bytes: B, KB, MB or GB (1 KB = 1024 bytes).
    public static func size(_ text: String) throws(Refusal) -> Int64 {
        let (number, unit) = split(text)
        guard let value = Double(number), value > 0, value.isFinite else {
            throw Refusal(message: "\"\(text)\" is not a size; write a number and a unit, e.g. \"512KB\" or \"10MB\".")
        }
        let factor: Double
        switch unit.uppercased() {
        case "B": factor = 1
        case "KB", "K", "KIB": factor = 1024
        case "MB", "M", "MIB": factor = 1024 * 1024
        case "GB", "G", "GIB": factor = 1024 * 1024 * 1024
        case "": throw Refusal(message: "\"\(text)\" has no unit; write it as \"\(number)MB\" or \"\(number)KB\".")
        default: throw Refusal(message: "\"\(text)\": unknown unit \"\(unit)\"; use B, KB, MB or GB.")
        }
        guard value * factor <= Double(1 << 50) else {
            throw Refusal(message: "\"\(text)\" is larger than any setting needs (at most 1024 TB); write a smaller size.")
        }
        return Int64((value * factor).rounded())
    }

    /// A duration as a person would write it: "30ms", "1.5s", "2m", "30d".
    public static func describe(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded()))ms" }
        if milliseconds < 60_000 || milliseconds.truncatingRemainder(dividingBy: 60_000) != 0 {
            let seconds = milliseconds / 1000
            return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
        }
        if milliseconds.truncatingRemainder(dividingBy: 86_400_000) == 0 { return "\(Int(milliseconds / 86_400_000))d" }
        if milliseconds.truncatingRemainder(dividingBy: 3_600_000) == 0 { return "\(Int(milliseconds / 3_600_000))h" }
        return "\(Int(milliseconds / 60_000))m"
    }

    private static func split(_ text: String) -> (number: String, unit: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let number = trimmed.prefix { $0.isNumber || $0 == "." }
        return (String(number), trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces))
    }
}
