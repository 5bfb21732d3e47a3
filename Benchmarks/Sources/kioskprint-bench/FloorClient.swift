import BenchSupport
import Foundation
import PrintModel
import Simulator
import Spooler
import Templates

/// Issue 15's floor: Benchmarks/Floor/ipp-print-floor.c, a C program that
/// prints a pre-drawn PWG raster file with libcups alone (Print-Job with the
/// agent's attributes, then Get-Job-Attributes at once and every 10 ms until
/// completed). The bench compiles it at run time into a temporary folder,
/// from the repository's source beside this file (or
/// `$KIOSKPRINT_FLOOR_SOURCE`), so the floor is always the source in the tree.
struct FloorClient: Sendable {
    /// The compiled program.
    let binary: String
    /// The command that built it, for the footnotes.
    let compileCommand: String

    /// Overrides where the C source is read from.
    static let sourceVariable = "KIOSKPRINT_FLOOR_SOURCE"

    /// The C source: `$KIOSKPRINT_FLOOR_SOURCE`, else Benchmarks/Floor/ipp-print-floor.c
    /// in the Benchmarks package this file was compiled from (two folders up from it).
    static func sourcePath() throws -> String { try sourcePath(of: "ipp-print-floor.c", variable: sourceVariable) }

    /// `file` in Benchmarks/Floor, or where `$variable` says.
    static func sourcePath(of file: String, variable: String) throws -> String {
        if let given = ProcessInfo.processInfo.environment[variable], !given.isEmpty {
            guard FileManager.default.isReadableFile(atPath: given) else {
                throw BenchError("$\(variable) names \(given), which cannot be read")
            }
            return given
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = package.appendingPathComponent("Floor/\(file)").path
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw BenchError("the floor's source \(path) is not there (the bench finds it relative to the "
                + "repository it was built from); set $\(variable) to its path")
        }
        return path
    }

    /// libcups' compiler flags: pkg-config's, else cups-config's (Debian 12's libcups2-dev ships no cups.pc).
    static let cupsFlags = "$(pkg-config --cflags --libs cups 2>/dev/null || cups-config --cflags --libs)"

    /// Compiles the client into `folder` with `cc -O2` and libcups' flags.
    static func build(in folder: URL) async throws -> FloorClient {
        let binary = try await compile(try sourcePath(), into: folder, as: "ipp-print-floor", flags: cupsFlags,
                                       what: "the floor client", packages: "libcups2-dev")
        return FloorClient(binary: binary, compileCommand: "cc -O2 -o ipp-print-floor ipp-print-floor.c \(cupsFlags)")
    }

    /// Compiles the C program `source` into `folder/name` with `cc -O2` and
    /// `flags`; returns the program's path, or says what failed and which
    /// packages it needs.
    static func compile(_ source: String, into folder: URL, as name: String, flags: String, what: String,
                        packages: String) async throws -> String {
        let binary = folder.appendingPathComponent(name).path
        let command = "cc -O2 -o \(binary) \(source) \(flags)"
        let run = try await TimedRun.run("/bin/sh", ["-c", command], environment: [:], folder: folder,
                                         limit: .seconds(120))
        guard run.succeeded, FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("could not compile \(what) (exit \(run.status)): `\(command)`: "
                + run.output.trimmingCharacters(in: .whitespacesAndNewlines).suffix(600)
                + " (\(packages) and a C compiler: scripts/install-deps.sh installs them)")
        }
        return binary
    }

    /// The client's arguments for `document` to `uri`: `jobs` timed after `warmUps` untimed.
    func arguments(_ document: FloorDocument, uri: String, jobs: Int = 1, warmUps: Int = 0) -> [String] {
        var arguments = ["-n", "\(jobs)", "-w", "\(warmUps)", "-F", document.format]
        if let x = document.xDimension, let y = document.yDimension {
            arguments += ["-x", "\(x)", "-y", "\(y)"]
            if let source = document.mediaSource { arguments += ["-s", source] }
        }
        for finishing in document.finishings { arguments += ["-f", "\(finishing)"] }
        return arguments + [uri, document.path]
    }

    /// What one run of the client said: each timed job's time, and its CPU over them.
    struct Run: Sendable {
        var times: [Duration]
        /// The client's own user + system time over the timed jobs (getrusage, as it prints it).
        var cpu: Duration
        var cpuPerJob: Duration { times.isEmpty ? .zero : cpu / times.count }
    }

    /// `jobs` jobs after `warmUps`, in one process on one connection.
    func run(_ document: FloorDocument, uri: String, jobs: Int, warmUps: Int, folder: URL) async throws -> Run {
        let arguments = arguments(document, uri: uri, jobs: jobs, warmUps: warmUps)
        let run = try await offloaded { [binary] in
            try MeasuredProcess.mustSucceed(binary, arguments, folder: folder)
        }
        return try Self.parse(run.output, expected: jobs)
    }

    /// `job ID MS` lines, then `cpu-us N`.
    static func parse(_ output: String, expected: Int) throws -> Run {
        var times: [Duration] = []
        var cpu: Duration?
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, fields[0] == "job", let ms = Double(fields[2]) {
                times.append(.microseconds(Int64((ms * 1000).rounded())))
            } else if fields.count == 2, fields[0] == "cpu-us", let us = Int64(fields[1]) {
                cpu = .microseconds(us)
            }
        }
        guard times.count == expected, let cpu else {
            throw BenchError("the floor client printed \(times.count) of \(expected) jobs: \(output.suffix(300))")
        }
        return Run(times: times, cpu: cpu)
    }
}

/// The receipt as the spooler sends it, drawn once before any timing: the
/// built-in receipt with its sample data through `DocumentPreparer` for the
/// saved printer's capabilities (what `Spooler.deliver` draws at send time),
/// with the media-col and finishings `IPPChannel.request` would put beside it.
struct FloorDocument: Sendable {
    var path: String
    var bytes: Int
    var format: String
    /// media-col's x and y (hundredths of a millimetre); nil when the spooler sends no media-col.
    var xDimension: Int?
    var yDimension: Int?
    var mediaSource: String?
    var finishings: [Int]

    static func draw(template: String = "receipt", dataJSON: String, for capabilities: PrinterCapabilities,
                     folder: URL, name: String) throws -> FloorDocument {
        let prepared = try DocumentPreparer(catalog: TemplateCatalog())
            .prepare(template: template, dataJSON: dataJSON, jobName: "floor receipt", for: capabilities)
        let path = folder.appendingPathComponent(name).path
        try prepared.data.write(to: URL(fileURLWithPath: path))
        let hasCut = !prepared.cutLengths.isEmpty
        return FloorDocument(path: path, bytes: prepared.data.count, format: prepared.format.rawValue,
                             xDimension: hasCut ? prepared.media.mediaWidth.hundredthsOfMillimetre : nil,
                             yDimension: hasCut ? prepared.yDimension.hundredthsOfMillimetre : nil,
                             mediaSource: hasCut ? prepared.media.mediaSource : nil,
                             finishings: prepared.finishings.map(\.rawValue))
    }

    /// `media-col 8000 x 16079, finishings 61`, for the footnotes.
    var attributesText: String {
        let media = xDimension.map { x in "media-col x \(x) y \(yDimension ?? 0)" + (mediaSource.map { " \($0)" } ?? "") }
        let cut = finishings.isEmpty ? nil : "finishings " + finishings.map(String.init).joined(separator: ",")
        return ([format] + [media, cut].compactMap { $0 }).joined(separator: ", ")
    }
}
