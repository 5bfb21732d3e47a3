import Foundation

/// A kind of job a printer is made for, as IPP `printer-kind` and the DNS-SD
/// `kind` TXT key name it (Apple: `UIPrinter.JobTypes`).
///
/// Filtering printers by kind is how the picker hides the printers an
/// application cannot use: a receipt application shows receipt and roll
/// printers only.
public enum JobKind: String, CaseIterable, Codable, Sendable, Comparable, CustomStringConvertible {
    case document
    case envelope
    case label
    case photo
    case receipt
    case roll
    case postcard
    case largeFormat = "large-format"

    public var description: String { rawValue }

    public static func < (lhs: JobKind, rhs: JobKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Parses a comma-separated list such as `receipt,roll`, the form of the
    /// TXT `kind` key and of ippeveprinter attribute files. Unknown words
    /// (`disc`, a vendor's own) are skipped: they name nothing we print.
    public static func parseList(_ text: String) -> Set<JobKind> {
        Set(text.split(separator: ",").compactMap {
            JobKind(rawValue: $0.trimmingCharacters(in: .whitespaces).lowercased())
        })
    }
}

extension Set where Element == JobKind {
    /// `receipt, roll`: sorted, for tables and messages.
    public var listing: String {
        isEmpty ? "-" : sorted().map(\.rawValue).joined(separator: ", ")
    }
}
