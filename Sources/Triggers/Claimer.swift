import Glibc
import Synchronization

/// Takes files from the folder into `processing/`, refusing what must not
/// be opened. Every step is relative to the opened folder (``Directory``).
struct Claimer: Sendable {
    let layout: FolderLayout
    let sizeLimit: Int64
    /// Told of each refusal and of trouble with the folder.
    var report: @Sendable (FolderReport) -> Void = { _ in }
    /// Whether the trouble of not telling a file being written from a
    /// complete one has been said: once per watch, not once per file.
    let cannotTellSaid = FirstTime()

    /// Claim names are unique per process and claim, so two agents' claims
    /// never land on the same name.
    private static let counter = Atomic<Int>(0)
    /// ".cPID.N.NAME" with PID and N in base 36: short enough that a name
    /// of ``WatchedFolder/longestName`` bytes still fits in 255.
    private static let claimPrefix = ".c"
    /// Claims made by versions before names were limited: ".claim.PID.N.NAME".
    private static let oldClaimPrefix = ".claim."

    private static func nextNumber() -> Int { counter.add(1, ordering: .relaxed).newValue }

    /// Claims `name` from the folder, or returns nil when it is ignored,
    /// already taken by someone else, or refused (then it is in `failed/`).
    /// `unlessBeingWritten` for a file found by a listing rather than
    /// announced by the kernel: a regular file some process still has open
    /// for writing is left for its IN_CLOSE_WRITE (see ``OpenForWriting``).
    func claim(_ name: EntryName, unlessBeingWritten: Bool = false) -> ClaimedFile? {
        let readable = String(decoding: name.bytes, as: UTF8.self)
        guard !WatchedFolder.isIgnored(readable), !FolderLayout.subfolderNames.contains(readable) else { return nil }
        let folder: Directory, processing: Directory
        do {
            folder = try layout.open()
            processing = try folder.subfolder(FolderLayout.processingName)
        } catch {
            report(.trouble("\(name) in \(layout.folder) was not taken: \(error)"))
            return nil
        }
        if unlessBeingWritten, isBeingWritten(name, in: folder) { return nil }
        guard let text = name.text, name.bytes.count <= WatchedFolder.longestName else {
            let unclaimable = UnclaimableName(name: name, folder: layout.folder)
            let safe = unclaimable.safeName(number: Self.nextNumber())
            refuse(name, in: folder, as: safe, explanation: unclaimable.explanation(keptAs: safe))
            return nil
        }
        // Step 1, the claim itself: an atomic rename to a name only this
        // claim uses. ENOENT means another agent (or an earlier event) won.
        let number = Self.nextNumber() % (36 * 36 * 36 * 36)
        let claimName = "\(Self.claimPrefix)\(String(getpid(), radix: 36)).\(String(number, radix: 36)).\(text)"
        do {
            guard try folder.rename(name, to: processing, as: EntryName(claimName)) else { return nil }
        } catch {
            return nil  // not ours to touch (e.g. no permission): left in place, tried again at the next scan
        }
        return settle(claimName, name: text, in: processing)
    }

    /// Step 2: gives the claimed entry its own name in `processing/`, or
    /// refuses it into `failed/`.
    private func settle(_ claimName: String, name: String, in processing: Directory) -> ClaimedFile? {
        if let refusal = Refusal(kind: processing.kind(of: EntryName(claimName)), sizeLimit: sizeLimit) {
            refuse(EntryName(claimName), in: processing, as: name, explanation: refusal.explanation(for: name))
            return nil
        }
        guard let settled = try? processing.move(EntryName(claimName), into: processing, as: name) else { return nil }
        // Offered once: being in processing/ says so (`Attempts.count` reads a
        // missing count as 1), so the first offer writes no count file. Creating
        // and removing one per file was a steady part of the agent's CPU per job.
        return ClaimedFile(name: settled, originalName: name, layout: layout)
    }

    /// Moves `entry` from `source` to `failed/` as `name`, and says so; a
    /// failure to move it is trouble, said too.
    private func refuse(_ entry: EntryName, in source: Directory, as name: String, explanation: String) {
        do {
            guard try layout.moveToFailed(entry, from: source, as: name, explanation: explanation,
                                          forgetAttempts: source.path == layout.processing) != nil else { return }
            report(.refused(name: name, explanation: explanation))
        } catch {
            report(.trouble("\(name) in \(source.path) was refused (\(explanation)) but not moved to failed/: \(error)"))
        }
    }

    /// Everything now in the folder that no process is still writing,
    /// claimed in name order. The folder is watched before it is listed, so
    /// a file left here is claimed by its IN_CLOSE_WRITE.
    func scanFolder() -> [ClaimedFile] {
        guard let names = try? layout.open().list() else { return [] }
        return names.compactMap { claim($0, unlessBeingWritten: true) }
    }

    /// True for a regular file some process still has open for writing.
    /// When the kernel cannot tell, the file is taken, as before leases were
    /// asked, and the reason is said once.
    private func isBeingWritten(_ name: EntryName, in folder: Directory) -> Bool {
        guard folder.kind(of: name).isRegular else { return false }
        switch folder.openForWriting(name) {
        case .no: return false
        case .yes: return true
        case .cannotTell(let code):
            if cannotTellSaid.take() {
                report(.trouble("KioskPrint cannot tell whether files in \(layout.folder) are still being written: the kernel "
                    + "refused a lease on \(name) (\(String(cString: strerror(code)))). A lease needs the file's owner or "
                    + "CAP_LEASE, which the shipped unit gives the agent (AmbientCapabilities=CAP_LEASE), and a filesystem "
                    + "that has leases (NFS has none). Meanwhile a file found at start while still being written may be taken "
                    + "half-written and refused into failed/; writing under a .tmp name and renaming it into place is always safe."))
            }
            return false
        }
    }

    /// Files a stopped agent left in `processing/`, including claims it
    /// made but had not yet renamed. One offered ``Attempts/limit`` times
    /// already goes to `failed/` instead.
    ///
    /// A move is a link under the new name, then an unlink of the old one
    /// (``Directory/move(_:into:as:linked:)``): a file the stopped agent had
    /// already linked into `done/` is finished there, not offered again
    /// (its job was queued: a file goes to `done/` only then; its change
    /// time, by which a job queued before a stop is found, is the link's);
    /// a claim already linked under its own name is offered by that name only.
    func recoverInterrupted() -> [ClaimedFile] {
        let processing: Directory, names: [EntryName], done: Directory?
        do {
            let folder = try layout.open()
            processing = try folder.subfolder(FolderLayout.processingName)
            names = try processing.list()
            done = try? folder.subfolder(FolderLayout.doneName)
        } catch {
            report(.trouble("Files left in \(layout.processing) were not taken up: \(error)"))
            return []
        }
        Attempts.forgetOrphans(in: processing, names: names)
        return names.compactMap { entry in
            guard let name = entry.text else { return nil }  // only claims are made here, and their names are text
            if let original = Self.originalName(ofClaim: name) {
                // Killed after linking the claim to its own name: that name, in this listing too, is offered.
                if processing.sameFile(as: entry, in: processing) != nil {
                    processing.remove(entry)
                    return nil
                }
                return settle(name, name: original, in: processing)
            }
            guard !name.hasPrefix(".") else { return nil }
            if let done, let kept = processing.sameFile(as: entry, in: done) {
                processing.remove(entry)
                Attempts.forget(name, in: processing)
                layout.recordFinished(kept, in: done)
                report(.recovered("\(name) was already in done/ (as \(kept)) when the agent stopped: it had been queued, "
                    + "so it is not queued again."))
                return nil
            }
            if let refusal = Refusal(kind: processing.kind(of: entry), sizeLimit: sizeLimit) {
                refuse(entry, in: processing, as: name, explanation: refusal.explanation(for: name))
                return nil
            }
            let offered = Attempts.count(name, in: processing)
            guard offered < Attempts.limit else {
                refuse(entry, in: processing, as: name,
                       explanation: Attempts.quarantine(name, count: offered, folder: layout.folder))
                return nil
            }
            Attempts.record(offered + 1, for: name, in: processing)
            return ClaimedFile(name: name, originalName: name, layout: layout, wasInterrupted: true)
        }
    }

    /// The dropped name inside a claim's name, nil for other names.
    static func originalName(ofClaim name: String) -> String? {
        // ".claim.PID.N.NAME" (older) or ".cPID.N.NAME": the name follows the third dot.
        let rest: Substring
        if name.hasPrefix(oldClaimPrefix) { rest = name.dropFirst(oldClaimPrefix.count) } else if name.hasPrefix(claimPrefix) {
            rest = name.dropFirst(claimPrefix.count)
        } else { return nil }
        let parts = rest.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
        return String(parts[2])
    }
}

/// An exclusive `flock` on `processing/.agent.lock`, held while an agent
/// watches. Only an agent that gets it takes up files left in
/// `processing/`: otherwise another agent is running and they may be its.
final class AgentLock: Sendable {
    private let fd: Int32
    /// True when no other agent holds the lock.
    let isAlone: Bool

    init(processing: Directory?) {
        fd = processing?.openLockFile(".agent.lock") ?? -1
        isAlone = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    func release() {
        if fd >= 0 { close(fd) }
    }
}
