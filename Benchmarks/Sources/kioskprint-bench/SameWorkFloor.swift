import BenchSupport
import Foundation
import Simulator

/// Issue 15's floor for work, not only for printing: Benchmarks/Floor/print-wait-floor.c,
/// a C program that does what `kioskprint print receipt --wait` does with no
/// agent, in the least code: lays out the built-in receipt with its sample
/// data (written out by hand) with Pango at 203 dpi, draws it with the logo
/// and the QR code, encodes PWG raster, spools it in SQLite (WAL, synced
/// commits), prints it with Print-Job and follows it to completed. As a whole
/// process it is the floor for `print --wait`; with `-n N -i 30` in one
/// process, keeping what an agent keeps, the floor for the agent's CPU per
/// 30-item receipt. Compiled by the bench at run time, as `FloorClient` is.
struct SameWorkFloor: Sendable {
    /// The compiled program.
    let binary: String
    /// The command that built it, for the footnotes.
    let compileCommand: String
    /// The built-in receipt's logo, which the program draws.
    let logo: String

    /// Overrides where the C source is read from.
    static let sourceVariable = "KIOSKPRINT_SAME_WORK_FLOOR_SOURCE"

    /// Compiles the program into `folder` with `cc -O2` and the libraries the agent draws, spools and prints with.
    static func build(in folder: URL) async throws -> SameWorkFloor {
        let source = try FloorClient.sourcePath(of: "print-wait-floor.c", variable: sourceVariable)
        // Benchmarks/Sources/kioskprint-bench/ -> the repository this bench was built from -> the receipt's logo.
        let logo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Templates/BuiltIn/logo.png").path
        guard FileManager.default.isReadableFile(atPath: logo) else {
            throw BenchError("the built-in receipt's logo \(logo) is not there (the bench finds it relative to the "
                + "repository it was built from)")
        }
        let flags = "$(pkg-config --cflags --libs pangocairo sqlite3) \(FloorClient.cupsFlags) -lzint"
        let binary = try await FloorClient.compile(source, into: folder, as: "print-wait-floor", flags: flags,
                                                   what: "the same-work floor",
                                                   packages: "libpango1.0-dev, libsqlite3-dev, libcups2-dev, libzint-dev")
        return SameWorkFloor(binary: binary, compileCommand: "cc -O2 -o print-wait-floor print-wait-floor.c \(flags)",
                             logo: logo)
    }

    /// One receipt as a whole process: the arguments, with the database it spools in.
    func arguments(uri: String, database: String) -> [String] { [uri, database, logo] }

    /// The CPU per receipt of `jobs` receipts of `items` items in one process
    /// (after one untimed), with its fonts, logo, database and connection kept.
    func cpuPerReceipt(uri: String, items: Int, jobs: Int, folder: URL) async throws -> Duration {
        let database = folder.appendingPathComponent("same-work-floor.sqlite").path
        let arguments = ["-n", "\(jobs)", "-i", "\(items)", uri, database, logo]
        let run = try await offloaded { [binary] in try MeasuredProcess.mustSucceed(binary, arguments, folder: folder) }
        for line in run.output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == "cpu-us-per-job", let us = Int64(fields[1]) { return .microseconds(us) }
        }
        throw BenchError("the same-work floor printed no cpu-us-per-job: \(run.output.suffix(300))")
    }
}
