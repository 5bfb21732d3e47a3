import Foundation
import Glibc
import Synchronization

/// Template files read before, kept with what their files looked like on
/// disk, so that an agent taking a folder job reads no file and
/// decodes no text for the template it printed a moment ago: it only looks
/// at the file (and at its `NAME.sample.json`) with `stat`.
///
/// A file is read again as soon as anything about it changes: its device,
/// inode, size, modification or change time. A file written within the two
/// seconds before it was read is not trusted (a second write in the same
/// clock tick, to the same size, would leave every stamp as it was): it is
/// read again until it has been left alone for that long.
final class TemplateFileCache: Sendable {
    static let shared = TemplateFileCache()
    /// Template files kept: far more than a kiosk's templates folder holds.
    static let capacity = 64
    /// How long a file must have been left alone before its stamp is trusted.
    static let settling: Duration = .seconds(2)

    /// What a file looked like on disk, as `stat` says.
    struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var changed: timespec

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }

        /// The file at `path` now; nil when it cannot be looked at.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev); inode = UInt64(info.st_ino); size = Int64(info.st_size)
            modified = info.st_mtim; changed = info.st_ctim
        }

        /// True when the file's contents were last written at least
        /// `settling` before `time`: a write sets the modification time to
        /// its clock tick, so a second write in the tick the file was read
        /// in is caught here. (Its change time is compared, not trusted this
        /// way: setting an old modification time back also sets it to now.)
        func settled(before time: timespec) -> Bool {
            let written = Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9
            let read = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
            return read - written >= Double(TemplateFileCache.settling.components.seconds)
        }
    }

    private struct Entry {
        var template: Stamp
        /// The sample file's stamp; nil when there was none.
        var sample: Stamp?
        var source: TemplateSource
        /// When the files were read (the realtime clock, as file times are).
        var read: timespec
    }

    private struct Contents {
        var entries: [String: Entry] = [:]
        /// Times each path was read from disk, for tests.
        var reads: [String: Int] = [:]
    }

    private let contents = Mutex(Contents())

    /// The template at `path`, from memory when neither it nor its sample
    /// file changed since `load` read them; otherwise `load` reads them again.
    func source(path: String, samplePath: String,
                load: () throws(TemplateLookupError) -> TemplateSource) throws(TemplateLookupError) -> TemplateSource {
        let stamp = Stamp(path: path), sample = Stamp(path: samplePath)
        if let stamp, let known = contents.withLock({ $0.entries[path] }), known.template == stamp,
           known.sample == sample, stamp.settled(before: known.read), sample?.settled(before: known.read) ?? true {
            return known.source
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let source = try load()
        contents.withLock { contents in
            contents.reads[path, default: 0] += 1
            guard let stamp else { return }
            // The stamps taken before reading: a change while reading makes the next look read again.
            if contents.entries[path] == nil, contents.entries.count >= Self.capacity { contents.entries.removeAll() }
            contents.entries[path] = Entry(template: stamp, sample: sample, source: source, read: now)
        }
        return source
    }

    /// How many times the file at `path` was read from disk: what the tests look at.
    func reads(of path: String) -> Int { contents.withLock { $0.reads[path] ?? 0 } }
}
