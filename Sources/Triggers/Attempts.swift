/// How many times a file in `processing/` has been offered: once when it is
/// claimed (no count is written: a file there without one was offered once),
/// and again at each start of an agent that finds it left there.
/// A file offered ``limit`` times without being finished (the agent
/// stopped, or crashed on it, every time) is moved to `failed/` with its
/// reason instead of being offered for ever.
///
/// The count is a small sidecar file, `processing/.tries.NAME`, written
/// beside the file. Not an extended attribute, which Swift's Glibc module
/// does not expose and not every filesystem keeps; and not the file's name,
/// which is the job's source and must stay as it was claimed (a file queued
/// just before a crash is found again by that name).
enum Attempts {
    /// Offers of one file, in a row, before it is quarantined in `failed/`.
    static let limit = 3

    private static let prefix = ".tries."

    /// Offers so far of `name` in `processing/`: at least 1, as a file is
    /// there only because it was claimed.
    static func count(_ name: String, in processing: Directory) -> Int {
        let recorded = processing.read(prefix + name).flatMap { Int($0.filter(\.isNumber)) } ?? 0
        return max(recorded, 1)
    }

    /// Records `count` offers of `name`. When the disk is too full to write
    /// it, the count stays as it was.
    static func record(_ count: Int, for name: String, in processing: Directory) {
        try? processing.write("\(count)\n", to: prefix + name)
    }

    /// Drops the count of `name`, which has left `processing/`.
    static func forget(_ name: String, in processing: Directory) {
        processing.remove(EntryName(prefix + name))
    }

    /// Drops counts whose file is no longer in `processing/` (an agent
    /// stopped between moving a file on and dropping its count).
    static func forgetOrphans(in processing: Directory, names: [EntryName]) {
        let present = Set(names.compactMap(\.text))
        for name in present where name.hasPrefix(prefix) && !present.contains(String(name.dropFirst(prefix.count))) {
            processing.remove(EntryName(name))
        }
    }

    /// The reason written beside a file quarantined after `count` offers.
    static func quarantine(_ name: String, count: Int, folder: String) -> String {
        "\(name) was taken up \(count) times and never finished: each time, the agent stopped before it had queued "
            + "or refused it (the file may be what stops it). KioskPrint did not offer it again, so that it cannot stop "
            + "the agent at every start. Look in the agent's log (journalctl -u kioskprint) for what happened while it was "
            + "handled; once that is fixed, move it back into \(folder) to print it."
    }
}
