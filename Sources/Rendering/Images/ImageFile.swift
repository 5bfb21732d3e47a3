import Glibc

/// Reads an image file's bytes, refusing what should not be read whole.
///
/// One open file descriptor answers every question (exists? folder? how
/// big?), so nothing changes between the check and the read. O_NONBLOCK keeps
/// a FIFO named by mistake from hanging the render; it changes nothing for
/// regular files.
enum ImageFile {
    static func read(path: String, limit: Int) throws(ImageError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .notFound(name: path)
            default: throw .unreadable(name: path, reason: String(cString: strerror(code)))
            }
        }
        defer { close(fd) }

        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw .unreadable(name: path, reason: String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .isDirectory(name: path)
        default: throw .notARegularFile(name: path)
        }
        let size = Int(info.st_size)
        guard size <= limit else { throw .fileTooLarge(name: path, bytes: size, limit: limit) }

        // Read to the end rather than trusting st_size, but never past the
        // limit: a file still being written may have grown since fstat.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= limit else {
                    throw .fileTooLarge(name: path, bytes: bytes.count, limit: limit)
                }
                bytes.append(contentsOf: repeatElement(0, count: min(65_536, limit + 1 - bytes.count)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
            }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(name: path, reason: String(cString: strerror(errno)))
            }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}
