public import ArgumentParser
import Foundation

/// Where the `kioskprint` binary a bench runs is.
///
/// The product is built by its own package (the repository's root), so the
/// commands that run it find it explicitly: the path given with
/// `--kioskprint`, or else the root package's release build,
/// `.build/release/kioskprint`. The root package is found from this
/// program's own path: the nearest folder above it that holds a
/// Package.swift is either the root (`kioskprint-startup-order`, built there)
/// or the Benchmarks package (`kioskprint-bench`), whose parent is the root.
/// So both run the kioskprint that `scripts/build-release.sh --product
/// kioskprint` builds, whatever the current directory is.
public enum KioskprintBinary {
    /// The command that builds the default binary, from the repository's root.
    public static let buildCommand = "scripts/build-release.sh --product kioskprint"

    /// The root package's `.build/release/kioskprint`, whether it exists or
    /// not; nil when this program is not inside a Benchmarks package's build folder.
    public static func defaultPath() -> String? {
        guard let program = try? ownExecutablePath() else { return nil }
        var folder = URL(fileURLWithPath: program).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                let parent = folder.deletingLastPathComponent()
                let isBenchmarks = FileManager.default.fileExists(atPath: parent.appendingPathComponent("Package.swift").path)
                return (isBenchmarks ? parent : folder).appendingPathComponent(".build/release/kioskprint").path
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// `explicit` (a `--kioskprint` path) or the default, checked to be an
    /// executable file; otherwise an error that names the path and what to do.
    public static func locate(_ explicit: String? = nil) throws -> String {
        if let explicit {
            guard FileManager.default.isExecutableFile(atPath: explicit) else {
                throw BenchError("--kioskprint \(explicit): no executable file there. Give the path of a built "
                    + "kioskprint, or leave --kioskprint out to run the root package's release build.")
            }
            return explicit
        }
        guard let path = defaultPath() else {
            throw BenchError("cannot tell where the KioskPrint package is: this program is not inside the build folder of "
                + "KioskPrint's Benchmarks package. Pass --kioskprint PATH (e.g. .build/release/kioskprint).")
        }
        guard FileManager.default.isExecutableFile(atPath: path) else {
            let root = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path
            throw BenchError("the release kioskprint is not built: \(path) is missing. Build it with "
                + "`\(buildCommand)` in \(root), or pass --kioskprint PATH.")
        }
        return path
    }
}

/// `--kioskprint PATH`, for the commands that run the product's binary.
public struct KioskprintOption: ParsableArguments {
    @Option(name: .customLong("kioskprint"), help: ArgumentHelp(
        "The kioskprint binary to run.",
        discussion: "Default: the root package's .build/release/kioskprint, found from this program's path (the "
            + "folder above the Benchmarks package it was built in); build it with `\(KioskprintBinary.buildCommand)`.",
        valueName: "path"), completion: .file())
    public var path: String?

    public init() {}

    /// The binary to run: `--kioskprint`'s, or the default; an error naming the path and the build command otherwise.
    public func binary() throws -> String { try KioskprintBinary.locate(path) }
}
