import BenchSupport
import Foundation

/// Where a process's resident memory is, from /proc/PID/smaps: its own
/// binary, shared libraries, font files, other files, and anonymous memory
/// (heap, stacks, written data). For each, how much other processes map too:
/// the kernel cannot page those out for this process alone.
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

    static func read(pid: pid_t) -> ResidentParts? {
        // Not String(contentsOfFile:): it stops after the first 4 KB of a /proc file, whose size reads 0.
        guard let bytes = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/smaps")).readToEnd(),
              let smaps = Optional(String(decoding: bytes, as: UTF8.self)),
              let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") else { return nil }
        var parts = ResidentParts()
        var current: WritableKeyPath<ResidentParts, Part> = \.anonymous
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), fields.count >= 5, !first.hasSuffix(":") {
                let path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                current = kind(of: path, executable: executable)
            } else if first == "Rss:", fields.count > 1, let kib = Int(fields[1]) {
                parts[keyPath: current].residentKiB += kib
            } else if first == "Private_Clean:" || first == "Private_Dirty:", fields.count > 1, let kib = Int(fields[1]) {
                parts[keyPath: current].privateKiB += kib
            }
        }
        return parts
    }

    private static func kind(of path: String, executable: String) -> WritableKeyPath<ResidentParts, Part> {
        if path == executable { return \.binary }
        if !path.hasPrefix("/") { return \.anonymous }
        if path.contains(".so") { return \.libraries }
        if [".ttf", ".otf", ".pfb", ".ttc"].contains(where: { path.hasSuffix($0) }) { return \.fonts }
        return \.otherFiles
    }

    /// "binary 9.7, libraries 8.1 (5.2 shared), fonts 0.0, other files 0.3, anonymous 6.3 MB".
    var text: String {
        func part(_ name: String, _ part: Part) -> String {
            let shared = part.residentKiB - part.privateKiB
            return "\(name) " + Self.mb(part.residentKiB) + (shared >= 512 ? " (\(Self.mb(shared)) shared)" : "")
        }
        return [part("binary", binary), part("libraries", libraries), part("fonts", fonts),
                part("other files", otherFiles), part("anonymous", anonymous)].joined(separator: ", ") + " MB"
    }

    private static func mb(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
}
