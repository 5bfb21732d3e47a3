import Foundation

/// Progress goes to standard error, and only on a terminal, so that standard
/// output is the table alone.
public func progress(_ message: String) {
    guard isatty(STDERR_FILENO) == 1 else { return }
    FileHandle.standardError.write(Data("... \(message)\n".utf8))
}

/// This program, for re-executing itself (a child of the render bench, the
/// private loopback) and for finding the kioskprint binary near it.
public func ownExecutablePath() throws -> String {
    var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &path, path.count - 1)
    guard length > 0 else { throw BenchError("cannot read /proc/self/exe: \(String(cString: strerror(errno)))") }
    return String(decoding: path.prefix(length).map(UInt8.init(bitPattern:)), as: UTF8.self)
}
