import Foundation
import Glibc

/// Waits for a watched folder that was deleted or moved away to be back:
/// watches its parent for the name to be created or moved in, and when even
/// the parent cannot be watched, looks again after a growing pause (up to
/// 30 s). Then the folder is watched again, its subfolders made anew.
struct FolderReturn {
    let path: String
    let layout: FolderLayout
    /// Told when the folder is back but one of its subfolders cannot be used.
    var report: @Sendable (FolderReport) -> Void = { _ in }

    private var parent: String { (path as NSString).deletingLastPathComponent }
    private var name: String { (path as NSString).lastPathComponent }

    /// True once the folder's name is deleted or moved out of its parent;
    /// false when cancelled first, or when the parent cannot be watched.
    func gone() async -> Bool {
        guard let parentWatcher = try? InotifyWatcher(folder: parent, events: UInt32(IN_DELETE | IN_MOVED_FROM)) else {
            return false
        }
        defer { parentWatcher.stop() }
        if (try? Directory.open(path)) == nil { return true }
        for await change in parentWatcher.changes {
            if case .arrived(name) = change { return true }
        }
        return false
    }

    /// The new watcher; nil when the task was cancelled first.
    func wait() async -> InotifyWatcher? {
        let name = name
        var pause = Duration.milliseconds(250)
        while !Task.isCancelled {
            if let parentWatcher = try? InotifyWatcher(folder: parent, events: UInt32(IN_CREATE | IN_MOVED_TO)) {
                defer { parentWatcher.stop() }
                // Watching the parent first, then looking: a folder made in between is not missed.
                if let watcher = watchAgain() { return watcher }
                for await change in parentWatcher.changes {
                    switch change {
                    case .created(name), .arrived(name), .lost:
                        if let watcher = watchAgain() { return watcher }
                    default: continue
                    }
                }
            } else if let watcher = watchAgain() {
                return watcher
            }
            if Task.isCancelled { return nil }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
        return nil
    }

    /// A watcher on the folder, once it is a folder again with its subfolders.
    private func watchAgain() -> InotifyWatcher? {
        guard let watcher = try? InotifyWatcher(folder: path, events: WatchedFolder.events) else { return nil }
        do { try layout.createSubfolders() } catch {
            report(.trouble("The watched folder \(path) is back but is not watched again: \(error)"))
            watcher.stop()
            return nil
        }
        return watcher
    }
}
