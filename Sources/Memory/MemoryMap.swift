import Foundation

/// A process's memory mappings as /proc/PID/smaps lists them, with the
/// sizes the idle release and the bench's memory breakdown need.
public enum MemoryMap {
    /// One mapping: its range, permissions, file (empty for anonymous
    /// memory, `[heap]`, `[stack]`...) and resident sizes in KiB.
    public struct Mapping: Sendable, Equatable {
        public var start: UInt
        public var end: UInt
        public var permissions: String
        public var path: String
        public var residentKB = 0
        public var anonymousKB = 0
        /// Private_Clean + Private_Dirty: pages no other process maps.
        public var privateKB = 0

        /// A mapping of a file (not the heap, a stack or [vdso]).
        public var isFileBacked: Bool { path.hasPrefix("/") }
    }

    /// The mappings of `process` ("self" or a pid); nil when its smaps cannot be read.
    public static func read(process: String) -> [Mapping]? {
        // Not String(contentsOfFile:): it stops after the first 4 KB of a /proc file, whose size reads 0.
        guard let bytes = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(process)/smaps")).readToEnd()
        else { return nil }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// The mappings of an smaps text.
    static func parse(_ smaps: String) -> [Mapping] {
        var mappings: [Mapping] = []
        for line in smaps.split(separator: "\n") {
            if let mapping = mapping(header: line) {
                mappings.append(mapping)
            } else if mappings.isEmpty {
                continue
            } else if line.hasPrefix("Rss:") {
                mappings[mappings.count - 1].residentKB = kilobytes(line)
            } else if line.hasPrefix("Anonymous:") {
                mappings[mappings.count - 1].anonymousKB = kilobytes(line)
            } else if line.hasPrefix("Private_Clean:") || line.hasPrefix("Private_Dirty:") {
                mappings[mappings.count - 1].privateKB += kilobytes(line)
            }
        }
        return mappings
    }

    /// `start-end perms offset dev inode [path]`; nil for a field line.
    private static func mapping(header line: Substring) -> Mapping? {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count >= 5, let dash = fields[0].firstIndex(of: "-"),
              let start = UInt(fields[0][..<dash], radix: 16),
              let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16) else { return nil }
        let path = fields.count > 5 ? String(fields[5].drop { $0 == " " }) : ""
        return Mapping(start: start, end: end, permissions: String(fields[1]), path: path)
    }

    private static func kilobytes(_ line: Substring) -> Int {
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } ?? 0
    }
}
