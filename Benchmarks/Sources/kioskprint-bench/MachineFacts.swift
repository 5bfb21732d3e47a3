import BenchSupport
import Foundation

/// What the figures were measured on, printed above the table: latency
/// figures mean little without the machine and build they came from.
struct MachineFacts {
    var processors: Int
    var cpuModel: String
    var kernel: String
    var configuration: String
    var date: String

    static func current() -> MachineFacts {
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        let formatter = ISO8601DateFormatter()
        return MachineFacts(processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model,
                            kernel: "Linux \(kernel)", configuration: configuration,
                            date: formatter.string(from: Date()))
    }

    /// The one-minute load average, as /proc/loadavg has it: timings on a
    /// busy machine (a build next door) read slower and spread wider.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.map(String.init) ?? "unknown"
    }

    /// The machine and build, without the loopback: all the render bench needs.
    var summary: String {
        "kioskprint-bench  \(date)  nproc \(processors) (\(cpuModel))  \(kernel)  build: \(configuration)"
    }

    var text: String {
        summary + "  "
            + (PrivateLoopback.isActive ? "loopback: private network namespace (this lab only)"
                                        : "loopback: shared with the machine (other labs visible)")
    }
}
