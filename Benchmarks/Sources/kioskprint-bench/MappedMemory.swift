import BenchSupport
import Foundation

/// A process's resident memory by what it maps, from /proc/PID/smaps: the
/// binary, each shared library, and the anonymous rest (heap, stacks). What
/// the idle figure is made of, so that a change to it can be traced to the
/// library or the code that moved it.
struct MappedMemory: Sendable {
    /// One mapped thing: a file's path (its base name), or `[heap]`, `[stack]`, `anonymous`.
    struct Share: Sendable {
        var name: String
        /// Resident KiB over all of its mappings.
        var rssKiB: Int
        /// Of that, KiB in its executable mappings (code).
        var codeKiB: Int
    }

    var shares: [Share]

    static func read(pid: pid_t) throws -> MappedMemory {
        // Read to the end: /proc reports a size of 0, and smaps runs past one page.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps"),
              let data = try? handle.readToEnd(), let text = String(data: data, encoding: .utf8) else {
            throw BenchError("cannot read /proc/\(pid)/smaps: the process is gone")
        }
        var byName: [String: Share] = [:]
        var current = ""
        var executable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), fields.count >= 5, !first.hasSuffix(":") {
                // "7f12...-7f12... r-xp 00000000 08:01 1234   /usr/lib/x86_64-linux-gnu/libcups.so.2"
                executable = fields[1].contains("x")
                current = fields.count >= 6 ? name(of: fields[5...].joined(separator: " ")) : "anonymous"
            } else if first == "Rss:", fields.count >= 2, let kib = Int(fields[1]), kib > 0 {
                var share = byName[current] ?? Share(name: current, rssKiB: 0, codeKiB: 0)
                share.rssKiB += kib
                if executable { share.codeKiB += kib }
                byName[current] = share
            }
        }
        return MappedMemory(shares: byName.values.sorted { $0.rssKiB != $1.rssKiB ? $0.rssKiB > $1.rssKiB : $0.name < $1.name })
    }

    /// A file's base name without its version (`libcups.so.2` -> `libcups`); brackets kept.
    static func name(of path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let base = (path as NSString).lastPathComponent
        if let so = base.range(of: ".so") { return String(base[..<so.lowerBound]) }
        return base
    }

    /// The `count` largest, then the rest summed: `kioskprint 17.0 MB (code 15.1), libcups 1.2 MB, ... , 41 others 3.4 MB`.
    func summary(largest count: Int) -> String {
        let head = shares.prefix(count).map { share in
            "\(share.name) \(Megabytes.text(share.rssKiB))" + (share.codeKiB > 0 ? " (code \(Megabytes.text(share.codeKiB)))" : "")
        }
        let rest = shares.dropFirst(count)
        let tail = rest.isEmpty ? [] : ["\(rest.count) others \(Megabytes.text(rest.reduce(0) { $0 + $1.rssKiB }))"]
        return (head + tail).joined(separator: ", ")
    }
}
