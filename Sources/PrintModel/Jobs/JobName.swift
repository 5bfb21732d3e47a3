import Foundation

/// The one rule for a job's name, wherever the job comes from (the command
/// line, a watched folder, a job file, a button): what the printer shows
/// and what crash recovery looks for.
///
/// The name is sent as IPP `job-name` (at most 255 octets, RFC 8011
/// section 5.3.5 `name(MAX)`) with the job's marker appended,
/// ` [kp-12-x7f0qa]`, by which a job is found again at the printer after a
/// crash. A control character (a NUL above all) cuts the name, and the
/// marker with it, at the printer; a name too long pushes the marker off.
/// Both would make recovery send the job again.
public enum JobName {
    /// Most bytes (UTF-8) in a job's name: 255 for `job-name`, less the marker
    /// with room for any job id (` [kp-` + 19 digits + `-xxxxxx]` is 32 bytes),
    /// rounded down.
    public static let maximumBytes = 200

    /// Why `name` (trimmed of surrounding spaces, as it is stored) cannot be a
    /// job's name, in words that follow the field it was given in; nil when it can.
    public static func problem(_ name: String) -> String? {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if let (index, scalar) = name.unicodeScalars.enumerated().first(where: { isUnprintable($0.element) }) {
            return "the job name has a control character (U+\(hex(scalar.value))) at character \(index + 1); "
                + "a job name is one line of printable text, e.g. \"Receipt 4711, till 3\"."
        }
        let bytes = name.utf8.count
        guard bytes <= maximumBytes else {
            return "the job name is \(bytes) bytes long, more than the \(maximumBytes) bytes a job name may be "
                + "(the printer keeps 255, and KioskPrint adds the job's marker, \" [kp-12-x7f0qa]\", to find it "
                + "again after a crash). Shorten it."
        }
        return nil
    }

    /// A name KioskPrint makes from others (a dropped file's name, "Reprint
    /// of ..."): control characters become spaces, and it is cut at a
    /// character boundary to `maximumBytes`, so it always passes `problem`.
    public static func cleaned(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars { scalars.append(isUnprintable(scalar) ? " " : scalar) }
        var result = ""
        var bytes = 0
        for character in String(scalars).trimmingCharacters(in: .whitespacesAndNewlines) {
            bytes += character.utf8.count
            guard bytes <= maximumBytes else { break }
            result.append(character)
        }
        return result.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// C0 and C1 controls (NUL, line breaks, tabs, escape) and the Unicode line and paragraph separators.
    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
