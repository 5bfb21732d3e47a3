public import Foundation

/// A CUPS queue made as a site would make one for an IPP Everywhere printer:
/// `lpadmin -p NAME -E -v URI -m everywhere`, cupsd writing the PPD from
/// the printer's own attributes.
public enum DriverlessQueue {
    public enum Setup: Sendable, Equatable {
        case ready
        /// No PPD: why, in cupsd's words (or lpadmin's).
        case refused(String)
    }

    /// Adds the queue and says whether it got a PPD. lpadmin's exit status is
    /// not enough: when cupsd cannot make the PPD, CUPS 2.4.2's lpadmin still
    /// exits 0 and leaves a queue without one, which accepts jobs and calls them
    /// completed without sending anything to the printer.
    public static func add(_ name: String, uri: String, on cups: PrivateCups) async throws -> Setup {
        let run = try Subprocess.run(try ProgramPath.find("lpadmin"), ["-h", cups.server, "-p", name, "-E", "-v", uri, "-m", "everywhere"],
                                     limit: .seconds(60))
        guard run.status == 0 else {
            return .refused("lpadmin exited \(run.status): \((run.output + run.errors).trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        // cupsd asks the printer and writes the PPD after lpadmin has its answer.
        let ppd = cups.directory.appendingPathComponent("ppd/\(name).ppd").path
        let marker = "\(name): PPD creation failed: "
        var said: String?
        let settled = await pollUntil(within: .seconds(30)) {
            said = cups.errorLog.split(separator: "\n").last { $0.contains(marker) }.flatMap { line in
                line.range(of: marker).map { String(line[$0.upperBound...]) }
            }
            return said != nil || FileManager.default.fileExists(atPath: ppd)
        }
        if FileManager.default.fileExists(atPath: ppd) { return .ready }
        return .refused("lpadmin exited 0, but cupsd made no PPD"
            + (said.map { ": \"\($0)\"" } ?? (settled ? "" : " within 30 s (nothing in its error_log: "
                + cups.errorLog.split(separator: "\n").suffix(4).joined(separator: " / ") + ")")))
    }

    public static func remove(_ name: String, on cups: PrivateCups) throws {
        _ = try Subprocess.run(try ProgramPath.find("lpadmin"), ["-h", cups.server, "-x", name])
    }

    /// The first lines of the queue's PPD that say what CUPS will send: its
    /// filter (`*cupsFilter2`), for the table's footnote.
    public static func filter(_ name: String, on cups: PrivateCups) -> String? {
        let ppd = cups.directory.appendingPathComponent("ppd/\(name).ppd")
        let text = (try? String(contentsOf: ppd, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix("*cupsFilter2:") }
            .map { String($0.dropFirst("*cupsFilter2:".count)).trimmingCharacters(in: .whitespaces) }
    }
}
