/// Why a model name typed by the administrator found no catalog entry.
public enum CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No model of that name; the nearest names, empty when none is near.
    case unknownModel(String, nearest: [String])
    /// A name several entries answer to, such as a Zebra sold at 203 and 300 dpi.
    case ambiguousModel(String, candidates: [String])

    public var description: String {
        switch self {
        case .unknownModel(let name, let nearest):
            "There is no printer model \"\(name)\" in KioskPrint's catalog. "
                + (nearest.isEmpty
                    ? "The catalog knows: \(ModelCatalog.entries.map(\.name).joined(separator: ", ")). "
                    : "Did you mean \(nearest.joined(separator: " or "))? ")
                + "Give a known model with --model, or describe the printer with --language, --width, --printable and --dpi."
        case .ambiguousModel(let name, let candidates):
            "\"\(name)\" names several catalog models: \(candidates.joined(separator: ", ")). "
                + "Name one of them with --model, or give the resolution with --dpi."
        }
    }
}
