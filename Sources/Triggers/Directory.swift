import Glibc

/// A folder opened once, whose entries are reached relative to its
/// descriptor (`openat`, `renameat`, `linkat`, `unlinkat`, `fstatat`): a
/// link put in place of a subfolder is never followed, so the agent, even
/// as root, writes nowhere but inside the watched folder. No C pointer
/// leaves this file and `FileSystem.swift`.
final class Directory: Sendable {
    /// Open (O_DIRECTORY) until this object is released.
    let fd: Int32
    /// Its path, for messages only; nothing is opened by it.
    let path: String
    /// Its owner and group, read from the open descriptor.
    let owner: uid_t
    let group: gid_t

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        var info = stat()
        _ = fstat(fd, &info)
        owner = info.st_uid
        group = info.st_gid
    }

    deinit { close(fd) }

    /// Opens a watched folder. Its path comes from the administrator's
    /// configuration, so a link there is followed: only here.
    static func open(_ path: String) throws -> Directory {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw TriggerError.system("open the folder", path, errno: errno,
                                      advice: "Check that it exists, is a folder, and the agent may read it.")
        }
        return Directory(fd: fd, path: path)
    }

    /// Opens the subfolder `name` to write into, creating it (mode 0750)
    /// when missing; one the agent creates as root goes to this folder's
    /// owner, as the database file does. Only a real folder, never a link,
    /// owned by the agent's user or by this folder's owner is accepted:
    /// anything else is refused with what to do, and nothing is written.
    func subfolder(_ name: String) throws -> Directory {
        var sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        var created = false
        if sub < 0, errno == ENOENT {
            if mkdirat(fd, name, 0o750) == 0 { created = true } else if errno != EEXIST {
                throw TriggerError.system("create the folder", FileSystem.join(path, name), errno: errno,
                                          advice: "Create it by hand (mode 0750) or let the agent write to \(path).")
            }
            sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        let subPath = FileSystem.join(path, name)
        guard sub >= 0 else {
            let code = errno
            guard code == ELOOP || code == ENOTDIR else {
                throw TriggerError.system("open the folder", subPath, errno: code,
                                          advice: "Check that the agent may read and write \(path).")
            }
            throw unsafeSubfolder(subPath, found: kind(of: EntryName(name)) == .symbolicLink ? "a symbolic link" : "not a folder")
        }
        if created, geteuid() == 0, owner != 0 { _ = fchown(sub, owner, group) }
        let opened = Directory(fd: sub, path: subPath)
        guard opened.owner == geteuid() || opened.owner == owner else {
            throw unsafeSubfolder(subPath, found: "a folder of user \(opened.owner), neither the agent's user (\(geteuid())) "
                + "nor the owner of \(path) (\(owner))")
        }
        return opened
    }

    private func unsafeSubfolder(_ subPath: String, found: String) -> TriggerError {
        TriggerError("KioskPrint does not write into \(subPath): it is \(found), not a folder of the agent's own. "
            + "Whoever may write to \(path) can put such a thing there. Look at it, then remove it (rm -r \(subPath)); "
            + "the agent makes a new one. Make \(path) sticky (chmod +t \(path)) so that only its owner can replace what is in it.")
    }

    /// What `name` is, without following a link.
    func kind(of name: EntryName) -> EntryKind {
        guard let info = status(name) else { return .missing }
        return EntryKind(mode: info.st_mode, size: Int64(info.st_size))
    }

    /// Modification time in nanoseconds, or nil when the entry is gone.
    func modified(_ name: EntryName) -> Int64? {
        status(name).map { Int64($0.st_mtim.tv_sec) * 1_000_000_000 + Int64($0.st_mtim.tv_nsec) }
    }

    private func status(_ name: EntryName) -> stat? {
        var info = stat()
        let result = name.withCString { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) }
        return result == 0 ? info : nil
    }

    /// Entry names, as bytes, without "." and "..", sorted.
    func list() throws -> [EntryName] {
        let copy = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard copy >= 0, let handle = fdopendir(copy) else {
            let code = errno
            if copy >= 0 { close(copy) }
            throw TriggerError.system("list", path, errno: code,
                                      advice: "Check that the folder exists and the agent may read it.")
        }
        defer { closedir(handle) }
        var names: [EntryName] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in EntryName(bytes: raw.prefix { $0 != 0 }) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Atomically renames `name` to `newName` in `target`. Returns false when
    /// `name` is gone (someone else moved it first); throws on any other failure.
    func rename(_ name: EntryName, to target: Directory, as newName: EntryName) throws -> Bool {
        let result = name.withCString { from in newName.withCString { to in renameat(fd, from, target.fd, to) } }
        if result == 0 { return true }
        let code = errno
        if code == ENOENT { return false }
        throw TriggerError.system("move", FileSystem.join(path, name.escaped), errno: code,
                                  advice: "Check that the agent may write to \(path) and \(target.path).")
    }

    /// Moves `name` into `target` as `newName`, never replacing an entry
    /// already there: on a clash it tries "name-2.ext", "name-3.ext", ...
    /// Returns the name it ended at; nil when `name` is gone.
    ///
    /// `linkat` fails with EEXIST atomically, which plain `renameat` cannot
    /// do (renameat2 with RENAME_NOREPLACE is not visible from Swift's Glibc).
    /// So for a moment the file has both names: `linked` runs then (a
    /// ``CrashPoint``), and a start after a crash there finds both
    /// (``Directory/sameFile(as:in:)``).
    func move(_ name: EntryName, into target: Directory, as newName: String, linked: () -> Void = {}) throws -> String? {
        for attempt in 1...10_000 {
            let candidate = FileSystem.numbered(newName, attempt)
            let result = name.withCString { linkat(fd, $0, target.fd, candidate, 0) }
            if result == 0 {
                linked()
                remove(name)
                return candidate
            }
            let code = errno
            if code == EEXIST { continue }
            if code == ENOENT { return nil }
            // Directories cannot be hard-linked (EPERM); the caller owns the
            // entry by now, so check-then-rename only races with itself.
            guard code == EPERM || code == EMLINK || code == ENOTSUP else {
                throw TriggerError.system("move", FileSystem.join(path, name.escaped), errno: code,
                                          advice: "Check that the agent may write to \(target.path).")
            }
            if target.kind(of: EntryName(candidate)) != .missing { continue }
            if try rename(name, to: target, as: EntryName(candidate)) { return candidate }
            return nil
        }
        throw TriggerError("Could not move \(FileSystem.join(path, name.escaped)): \(target.path) already holds 10000 files "
            + "named like \(newName). Empty \(target.path).")
    }

    /// Removes the entry `name` (not a folder); one already gone is fine.
    func remove(_ name: EntryName) {
        _ = name.withCString { unlinkat(fd, $0, 0) }
    }

    /// Sets the modification time of `name` to now, without following a link.
    func touch(_ name: EntryName) {
        _ = name.withCString { utimensat(fd, $0, nil, AT_SYMLINK_NOFOLLOW) }
    }

    /// Another name, in `folder`, of the regular file `name` here: what a
    /// ``move(_:into:as:linked:)`` cut short between its link and its unlink
    /// leaves. Files, not names, are compared (device and inode), as the
    /// link may have been numbered. Nil for a file with one link, which
    /// costs one `fstatat`; only a file with more is `folder` listed for.
    func sameFile(as name: EntryName, in folder: Directory) -> EntryName? {
        guard let info = status(name), info.st_mode & S_IFMT == S_IFREG, info.st_nlink > 1,
              let names = try? folder.list() else { return nil }
        let sameFolder = isSameFolder(as: folder)
        return names.first { other in
            guard !sameFolder || other != name, let found = folder.status(other) else { return false }
            return found.st_dev == info.st_dev && found.st_ino == info.st_ino
        }
    }

    private func isSameFolder(as other: Directory) -> Bool {
        var mine = stat(), theirs = stat()
        return fstat(fd, &mine) == 0 && fstat(other.fd, &theirs) == 0
            && mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino
    }

    /// Writes `text` to `name` (mode 0640), replacing it; never follows a
    /// symbolic link at `name`. The text is written under a hidden name and
    /// renamed into place, so that whoever watches the folder (an operator's
    /// script waiting for a `.error` file) never reads it half written.
    func write(_ text: String, to name: String) throws {
        let target = FileSystem.join(path, name)
        let writing = ".\(name).writing"
        let file = openat(fd, writing, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o640)
        guard file >= 0 else {
            throw TriggerError.system("write", target, errno: errno, advice: "Check that the agent may write to \(path).")
        }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let failure = errno
                close(file)
                unlinkat(fd, writing, 0)
                throw TriggerError.system("write", target, errno: failure,
                                          advice: "Check free space on the disk holding \(path).")
            }
            bytes = bytes.dropFirst(written)
        }
        close(file)
        guard renameat(fd, writing, fd, name) == 0 else {
            let failure = errno
            unlinkat(fd, writing, 0)
            throw TriggerError.system("write", target, errno: failure, advice: "Check that the agent may write to \(path).")
        }
    }

    /// The first 4 KB of the regular file `name` as text; nil when it is
    /// missing or not a regular file (a link is never followed).
    func read(_ name: String) -> String? {
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
        guard count >= 0, kind(of: EntryName(name)).isRegular else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Opens (creating) `name` for a lock, never through a link; -1 on failure.
    func openLockFile(_ name: String) -> Int32 {
        openat(fd, name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o640)
    }
}
