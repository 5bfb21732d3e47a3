/// Why a dropped entry is refused before anything opens it, and the
/// explanation written beside it in `failed/`.
enum Refusal: Sendable, Equatable {
    case symbolicLink
    case directory
    case fifo
    case socket
    case device
    case unknownKind
    case tooLarge(size: Int64, limit: Int64)

    /// Nil when the entry is a regular file within the limit.
    init?(kind: EntryKind, sizeLimit: Int64) {
        switch kind {
        case .regular(let size):
            guard size > sizeLimit else { return nil }
            self = .tooLarge(size: size, limit: sizeLimit)
        case .symbolicLink: self = .symbolicLink
        case .directory: self = .directory
        case .fifo: self = .fifo
        case .socket: self = .socket
        case .device: self = .device
        case .other, .missing: self = .unknownKind
        }
    }

    /// What is wrong with `name` and what to do, in plain words.
    func explanation(for name: String) -> String {
        switch self {
        case .symbolicLink:
            return "\(name) is a symbolic link; KioskPrint does not follow links in a watched folder. "
                + "Copy the file itself into the folder."
        case .directory:
            return "\(name) is a folder; KioskPrint takes only single files from a watched folder. "
                + "Drop each job file into the folder on its own."
        case .fifo:
            return "\(name) is a named pipe (FIFO); KioskPrint does not read pipes from a watched folder. "
                + "Write the job to an ordinary file and drop that into the folder."
        case .socket:
            return "\(name) is a socket; KioskPrint takes only ordinary files from a watched folder. "
                + "Write the job to an ordinary file and drop that into the folder."
        case .device:
            return "\(name) is a device file; KioskPrint never reads devices from a watched folder. "
                + "Write the job to an ordinary file and drop that into the folder."
        case .unknownKind:
            return "\(name) is not an ordinary file; KioskPrint takes only ordinary files from a watched folder. "
                + "Write the job to an ordinary file and drop that into the folder."
        case .tooLarge(let size, let limit):
            return "\(name) is \(Self.megabytes(size)), more than the \(Self.megabytes(limit)) a watched folder accepts. "
                + "Make the job smaller, or raise the folder's size limit in the agent's settings."
        }
    }

    private static func megabytes(_ bytes: Int64) -> String {
        if bytes < 1024 * 1024 { return "\(bytes) bytes" }
        let tenths = bytes * 10 / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
