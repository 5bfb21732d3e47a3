import BenchSupport
import Foundation
import Memory

/// Where a process's resident memory is, from /proc/PID/smaps: its own
/// binary, shared libraries, font files, other files, and anonymous memory
/// (heap, stacks, written data). For each, how much other processes map too,
/// and the process's proportional share of it all (PSS): a page N processes
/// map counts 1/N, so unmapping shared pages lowers RSS more than PSS.
struct ResidentParts: Sendable {
    struct Part: Sendable {
        var residentKiB = 0
        /// Private_Clean + Private_Dirty: pages only this process maps.
        var privateKiB = 0
    }
    var binary = Part()
    var libraries = Part()
    var fonts = Part()
    var otherFiles = Part()
    var anonymous = Part()
    /// Pss from /proc/PID/smaps_rollup; nil when it cannot be read.
    var proportionalKiB: Int?

    static func read(pid: pid_t) -> ResidentParts? {
        guard let mappings = MemoryMap.read(process: "\(pid)"),
              let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") else { return nil }
        var parts = ResidentParts()
        for mapping in mappings {
            let part = kind(of: mapping.path, executable: executable)
            parts[keyPath: part].residentKiB += mapping.residentKB
            parts[keyPath: part].privateKiB += mapping.privateKB
        }
        parts.proportionalKiB = proportionalSet(pid: pid)
        return parts
    }

    /// The "Pss:" line of smaps_rollup, in KiB.
    static func proportionalSet(pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Pss:") }) else { return nil }
        return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }

    private static func kind(of path: String, executable: String) -> WritableKeyPath<ResidentParts, Part> {
        if path == executable { return \.binary }
        if !path.hasPrefix("/") { return \.anonymous }
        if path.contains(".so") { return \.libraries }
        if [".ttf", ".otf", ".pfb", ".ttc"].contains(where: { path.hasSuffix($0) }) { return \.fonts }
        return \.otherFiles
    }

    /// "binary 9.7, libraries 8.1 (5.2 shared), fonts 0.0, other files 0.3, anonymous 6.3 MB; PSS 12.0 MB".
    var text: String {
        func part(_ name: String, _ part: Part) -> String {
            let shared = part.residentKiB - part.privateKiB
            return "\(name) " + Self.mb(part.residentKiB) + (shared >= 512 ? " (\(Self.mb(shared)) shared)" : "")
        }
        return [part("binary", binary), part("libraries", libraries), part("fonts", fonts),
                part("other files", otherFiles), part("anonymous", anonymous)].joined(separator: ", ") + " MB"
            + (proportionalKiB.map { "; PSS \(Self.mb($0)) MB" } ?? "")
    }

    private static func mb(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
}
