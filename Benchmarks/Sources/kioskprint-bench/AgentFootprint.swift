import BenchSupport
import Foundation

/// What a running process holds, read from /proc: its resident memory, its
/// peak, its threads and its open file descriptors by kind. The agent
/// bench's idle and soak figures; a leak shows here as growth between reads.
struct AgentFootprint: Sendable {
    /// VmRSS, KiB: resident now.
    var rssKiB: Int
    /// VmHWM, KiB: the highest VmRSS so far.
    var peakKiB: Int
    /// RssAnon, KiB: the heap and stacks (what a leak grows); the rest of VmRSS is mapped files and shared memory.
    var anonKiB: Int
    var threads: Int
    /// Entries in /proc/PID/fd.
    var fds: Int
    /// The fds grouped by what they are: `socket`, `pipe`, `anon_inode:inotify`, or a path with its digits as `#`.
    var fdKinds: [String: Int]
    /// CPU time used so far, user and system, in milliseconds (from /proc/PID/stat).
    var cpuMilliseconds: Int = 0

    static func read(pid: pid_t) throws -> AgentFootprint {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            throw BenchError("cannot read /proc/\(pid)/status: the process is gone")
        }
        var fields: [String: Int] = [:]
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            // "VmRSS:	   23456 kB" or "Threads:	7"
            let number = parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            if let number { fields[String(parts[0])] = number }
        }
        let folder = "/proc/\(pid)/fd"
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder)
        var kinds: [String: Int] = [:]
        for entry in entries {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + entry) else {
                continue  // closed between the listing and the readlink
            }
            kinds[kind(of: target), default: 0] += 1
        }
        return AgentFootprint(rssKiB: fields["VmRSS"] ?? 0, peakKiB: fields["VmHWM"] ?? 0,
                              anonKiB: fields["RssAnon"] ?? 0, threads: fields["Threads"] ?? 0, fds: entries.count,
                              fdKinds: kinds, cpuMilliseconds: cpuMilliseconds(pid: pid))
    }

    /// utime + stime, fields 14 and 15 of /proc/PID/stat (counted after the
    /// command name's closing parenthesis, which may itself hold spaces).
    static func cpuMilliseconds(pid: pid_t) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so utime (14) and stime (15) are fields[11] and fields[12].
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return (user + system) * 1000 / Int(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// `socket:[123]` -> `socket`; a file by its folder and name, the name's
    /// digits as `#` so that files made per job count as one kind:
    /// `/tmp/lab/agent/receipts/processing/r-000123.json` -> `processing/r-#.json`.
    static func kind(of target: String) -> String {
        if let bracket = target.firstIndex(of: "["), target.hasPrefix("socket:") || target.hasPrefix("pipe:") {
            return String(target[..<bracket]).trimmingCharacters(in: CharacterSet(charactersIn: ":"))
        }
        guard target.hasPrefix("/"), !target.hasPrefix("/dev/") else { return target }
        let components = target.split(separator: "/")
        let name = components.last.map { $0.replacing(/[0-9]+/, with: "#") } ?? ""
        return (components.count > 1 ? components[components.count - 2] + "/" : "") + name
    }

    /// `7 socket, 3 pipe, 2 anon_inode:inotify, ...`, most first.
    var kindsText: String { Self.text(fdKinds) }

    static func text(_ kinds: [String: Int]) -> String {
        kinds.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// What `later` holds more or fewer of than this, by kind: `+3 socket, -1 pipe`; empty when the same.
    func fdChange(to later: AgentFootprint) -> String {
        let keys = Set(fdKinds.keys).union(later.fdKinds.keys).sorted()
        return keys.compactMap { key in
            let change = (later.fdKinds[key] ?? 0) - (fdKinds[key] ?? 0)
            return change == 0 ? nil : (change > 0 ? "+" : "") + "\(change) \(key)"
        }.joined(separator: ", ")
    }
}

/// A child's child, for daemons started through a guard script (the private cupsd).
enum ProcessTree {
    /// The first child of `pid`, from /proc/PID/task/PID/children.
    static func child(of pid: pid_t) -> pid_t? {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
