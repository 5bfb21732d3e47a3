import Foundation

/// A dropped entry whose name cannot be claimed as it is: not valid UTF-8,
/// or longer than ``WatchedFolder/longestName`` bytes (a claim adds a prefix
/// in `processing/`, and `failed/` adds "-2" and ".error", within the
/// kernel's 255). It is moved to `failed/` under a safe name, with its
/// original bytes in the `.error` beside it.
struct UnclaimableName {
    let name: EntryName
    let folder: String

    /// "unreadable-name-20261126-063012-7" or "long-name-...".
    func safeName(number: Int, at date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "\(name.text == nil ? "unreadable-name" : "long-name")-\(formatter.string(from: date))-\(number)"
    }

    /// What was wrong, the original name as bytes, and what to do.
    func explanation(keptAs safe: String) -> String {
        let what = name.text == nil
            ? "A file whose name is not valid UTF-8 text"
            : "A file whose name is \(name.bytes.count) bytes long, more than the \(WatchedFolder.longestName) a watched folder takes,"
        return "\(what) was dropped into \(folder). KioskPrint cannot take it under that name, so it moved it here, unopened, as \(safe).\n"
            + "Its name, byte by byte (hex): \(name.hexBytes)\n"
            + "Its name with the bytes that are not printable ASCII escaped: \(name.escaped)\n"
            + "Have the application that wrote it use names in UTF-8 of at most \(WatchedFolder.longestName) bytes; "
            + "to print this one, move it back into \(folder) under such a name (for example: mv \(FileSystem.join(folder, "failed/" + safe)) \(FileSystem.join(folder, "new-name.json")), with the extension it had)."
    }
}
