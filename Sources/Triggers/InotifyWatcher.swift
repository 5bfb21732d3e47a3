import Glibc
import Synchronization
import Foundation

/// What the kernel reported about the watched folder.
enum FolderChange: Sendable, Equatable {
    /// A file was closed after writing or renamed into the folder (or, for
    /// a watcher of other events, had one of them).
    case arrived(String)
    /// An entry was created in place (IN_CREATE): a regular file is still
    /// being written, but a link, pipe, socket, device or folder made with
    /// `ln -s`, `mkfifo` or `mkdir` is complete, and no other event follows.
    case created(String)
    /// The kernel's event queue overflowed, or a name arrived that is not
    /// UTF-8 text: the folder has to be listed again (as bytes).
    case lost
}

/// A thin wrapper over Linux inotify for one folder, watching for files
/// closed after writing (IN_CLOSE_WRITE) and files renamed in (IN_MOVED_TO),
/// or for the events a caller names (`DatabaseChanges`: IN_ATTRIB).
///
/// The inotify descriptor is read on a thread of its own that blocks in
/// `poll` beside a wake pipe; closing the pipe's write end stops it. This
/// keeps blocking system calls off Swift's cooperative thread pool.
final class InotifyWatcher: Sendable {
    /// Names as the kernel reports them; finishes when stopped or when the
    /// folder itself goes away.
    let changes: AsyncStream<FolderChange>

    /// The wake pipe's write end; nil once stopped.
    private let wakeWrite: Mutex<Int32?>

    /// Starts watching `folder` for `events`; throws when inotify is
    /// unavailable or the folder cannot be watched.
    init(folder: String, events: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)) throws {
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else {
            throw TriggerError.system("start watching", folder, errno: errno,
                                      advice: "Raise fs.inotify.max_user_instances or stop other watchers.")
        }
        let watch = inotify_add_watch(inotify, folder, events)
        guard watch >= 0 else {
            let code = errno
            close(inotify)
            throw TriggerError.system("watch", folder, errno: code,
                                      advice: "Check that the folder exists and the agent may read it.")
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            let code = errno
            close(inotify)
            throw TriggerError.system("create a wake pipe for", folder, errno: code,
                                      advice: "The process may be out of file descriptors.")
        }
        // pipe2 is not visible from Swift's Glibc module; set close-on-exec by hand.
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        let wakeRead = pipeEnds[0]
        wakeWrite = Mutex(pipeEnds[1])

        let (stream, continuation) = AsyncStream<FolderChange>.makeStream()
        changes = stream
        let thread = Thread {
            Self.run(inotify: inotify, wakeRead: wakeRead, continuation: continuation)
        }
        thread.name = "KioskPrint inotify"
        thread.start()
    }

    deinit { stop() }

    /// Stops the reading thread; the stream then finishes. Safe to call twice.
    func stop() {
        wakeWrite.withLock { fd in
            // Closing the only write end gives the reader POLLHUP; no byte is
            // written, so there is no SIGPIPE if the reader is already gone.
            if let open = fd { close(open) }
            fd = nil
        }
    }

    /// The reading thread: owns and finally closes the inotify descriptor
    /// and the wake pipe's read end.
    private static func run(inotify: Int32, wakeRead: Int32,
                            continuation: AsyncStream<FolderChange>.Continuation) {
        defer {
            close(inotify)
            close(wakeRead)
            continuation.finish()
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else {
                if fds[0].revents != 0 { return }  // POLLERR or POLLNVAL: nothing more will come
                continue
            }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    break  // EAGAIN: drained
                }
                if count == 0 { break }
                var folderGone = false
                for change in parse(buffer[0..<count], folderGone: &folderGone) {
                    continuation.yield(change)
                }
                if folderGone { return }
            }
        }
    }

    /// Splits a read into events. Each is a 16-byte header (wd, mask,
    /// cookie, len) followed by `len` bytes of NUL-padded name.
    static func parse(_ bytes: ArraySlice<UInt8>, folderGone: inout Bool) -> [FolderChange] {
        var changes: [FolderChange] = []
        var offset = bytes.startIndex
        let headerSize = 16
        while bytes.endIndex - offset >= headerSize {
            let mask = word(bytes, at: offset + 4)
            let nameLength = Int(word(bytes, at: offset + 12))
            let nameStart = offset + headerSize
            let nameEnd = min(nameStart + nameLength, bytes.endIndex)
            offset = nameEnd
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                changes.append(.lost)
                continue
            }
            if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 {
                folderGone = true
                continue
            }
            let nameBytes = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
            guard !nameBytes.isEmpty else { continue }
            guard let name = EntryName(bytes: nameBytes).text else {
                changes.append(.lost)
                continue
            }
            let isCreation = mask & UInt32(IN_CREATE) != 0 && mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) == 0
            changes.append(isCreation ? .created(name) : .arrived(name))
        }
        return changes
    }

    /// A native-endian 32-bit field, read byte by byte (no alignment assumed).
    private static func word(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for i in 0..<4 { raw[i] = bytes[index + i] }
        }
        return value
    }
}
