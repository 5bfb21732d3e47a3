import Glibc

/// The kinds of directory entry the folder tells apart, from `lstat` (which
/// never follows a symbolic link).
enum EntryKind: Sendable, Equatable {
    case regular(size: Int64)
    case symbolicLink
    case directory
    case fifo
    case socket
    case device
    case missing
    case other

    /// A regular file, of any size.
    var isRegular: Bool {
        if case .regular = self { return true }
        return false
    }
}

/// Small POSIX helpers for the watched folder. Paths are plain strings; no
/// C pointer leaves this file.
enum FileSystem {
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    static func kind(of path: String) -> EntryKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int64(info.st_size))
        case S_IFLNK: return .symbolicLink
        case S_IFDIR: return .directory
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        case S_IFCHR, S_IFBLK: return .device
        default: return .other
        }
    }

    /// Modification time in nanoseconds, or nil when the entry is gone.
    static func modified(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// Sets the modification time to now, so `done/` can be pruned in the
    /// order files were finished rather than the order they were written.
    static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW)
    }

    /// Creates `path` with mode 0750 unless it is already a directory.
    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o750) == 0 { return }
        let code = errno
        if code == EEXIST, kind(of: path) == .directory { return }
        throw TriggerError.system("create the folder", path, errno: code == EEXIST ? ENOTDIR : code,
                                  advice: "Create it by hand (mode 0750) or let the agent write to its parent.")
    }

    /// Entry names in `directory`, without "." and "..", sorted.
    static func list(_ directory: String) throws -> [String] {
        guard let handle = opendir(directory) else {
            throw TriggerError.system("list", directory, errno: errno,
                                      advice: "Check that the folder exists and the agent may read it.")
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Atomically renames `from` to `to`. Returns false when `from` is gone
    /// (someone else moved it first); throws on any other failure.
    static func claim(_ from: String, to: String) throws -> Bool {
        if rename(from, to) == 0 { return true }
        let code = errno
        if code == ENOENT { return false }
        throw TriggerError.system("move", from, errno: code,
                                  advice: "Check that the agent may write to the watched folder and its subfolders.")
    }

    /// Moves `from` into `directory` as `name`, never replacing an entry
    /// already there: on a clash it tries "name-2.ext", "name-3.ext", ...
    /// Returns the path it ended at.
    ///
    /// `link` fails with EEXIST atomically, which plain `rename` cannot do
    /// (renameat2 with RENAME_NOREPLACE is not visible from Swift's Glibc).
    @discardableResult
    static func moveWithoutReplacing(_ from: String, into directory: String, name: String) throws -> String {
        for attempt in 1...10_000 {
            let target = join(directory, numbered(name, attempt))
            if link(from, target) == 0 {
                _ = unlink(from)
                return target
            }
            let code = errno
            if code == EEXIST { continue }
            // Directories cannot be hard-linked (EPERM); the caller owns the
            // entry by now, so check-then-rename only races with itself.
            guard code == EPERM || code == EMLINK || code == ENOTSUP else {
                throw TriggerError.system("move", from, errno: code,
                                          advice: "Check that the agent may write to \(directory).")
            }
            if kind(of: target) != .missing { continue }
            if rename(from, target) == 0 { return target }
            throw TriggerError.system("move", from, errno: errno,
                                      advice: "Check that the agent may write to \(directory).")
        }
        throw TriggerError("Could not move \(from): \(directory) already holds 10000 files named like \(name). Empty \(directory).")
    }

    /// "ticket.pdf" numbered 3 is "ticket-3.pdf"; 1 is the name itself.
    static func numbered(_ name: String, _ number: Int) -> String {
        guard number > 1 else { return name }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(name[..<dot])-\(number)\(name[dot...])"
        }
        return "\(name)-\(number)"
    }

    /// Writes `text` to `path` (mode 0640), replacing it; never follows a
    /// symbolic link at `path`.
    static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o640)
        guard fd >= 0 else {
            throw TriggerError.system("write", path, errno: errno,
                                      advice: "Check that the agent may write to the failed folder.")
        }
        defer { close(fd) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw TriggerError.system("write", path, errno: errno,
                                          advice: "Check free space on the disk holding the watched folder.")
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
