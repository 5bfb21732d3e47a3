import PrintModel
import Synchronization

/// The kinds of job each printer has taken exactly as drawn, so that the
/// first job of a kind is checked with Validate-Job before it is sent and
/// the rest go straight to Print-Job. Kept for the spooler's life: a
/// printer's paper changes rarely, and a change shows in the kind (the
/// drawn width) or, at worst, in Print-Job's own answer.
final class ValidationBook: Sendable {
    private let kinds = Mutex<Set<String>>([])

    func contains(_ kind: String) -> Bool { kinds.withLock { $0.contains(kind) } }
    func insert(_ kind: String) { _ = kinds.withLock { $0.insert(kind) } }

    /// A job's kind at a printer: the template (or the file's format), the
    /// format and paper it was drawn on, and the named size it goes with.
    static func kind(of job: PrintJob, document: PreparedDocument, namedMedia: String?, printer uri: String) -> String {
        let source = switch job.content {
        case .template(let name, _): "template \(name)"
        case .document(_, let format): "file \(format)"
        case .unreadable(let kind): "unreadable \(kind)"
        }
        return [uri, source, document.format.rawValue, "\(document.media.mediaWidth.hundredthsOfMillimetre)",
                namedMedia ?? ""].joined(separator: "|")
    }
}
