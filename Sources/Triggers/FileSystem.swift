import Glibc

/// The kinds of directory entry the folder tells apart, from `fstatat`
/// without following a symbolic link.
enum EntryKind: Sendable, Equatable {
    case regular(size: Int64)
    case symbolicLink
    case directory
    case fifo
    case socket
    case device
    case missing
    case other

    init(mode: mode_t, size: Int64) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular(size: size)
        case S_IFLNK: self = .symbolicLink
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR, S_IFBLK: self = .device
        default: self = .other
        }
    }

    /// A regular file, of any size.
    var isRegular: Bool {
        if case .regular = self { return true }
        return false
    }
}

/// Small helpers on paths and names for the watched folder; the system
/// calls themselves go through ``Directory``.
enum FileSystem {
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// "ticket.pdf" numbered 3 is "ticket-3.pdf"; 1 is the name itself.
    static func numbered(_ name: String, _ number: Int) -> String {
        guard number > 1 else { return name }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(name[..<dot])-\(number)\(name[dot...])"
        }
        return "\(name)-\(number)"
    }
}
