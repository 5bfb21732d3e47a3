import Foundation
import Simulator

/// Runs the built `kioskprint` binary (or `kioskprint-demo`) as a user would, and collects what it says.
struct CommandRunner {
    /// The program's executable beside the test bundle in the build folder.
    static func executable(_ program: String = "kioskprint") -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // Swift Testing may run from inside the .xctest bundle on some platforms.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent(program).path),
              folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent(program)
    }

    static var executable: URL { executable() }

    var environment: [String: String] = [:]
    /// `kioskprint`, or `kioskprint-demo` for the quick start's demo.
    var program = "kioskprint"

    /// Runs `kioskprint ARGUMENTS` with standard input closed; a run still going
    /// after `limit` is a hang, and fails. The wait happens on a thread of its
    /// own: a test blocking one of the two cooperative threads while its child
    /// waits out a printer's time-out stalled every other test in the process.
    func run(_ arguments: [String], limit: Duration = .seconds(30)) async throws -> Subprocess.Output {
        let (path, environment) = (Self.executable(program).path, environment)
        return try await offloaded { try Subprocess.run(path, arguments, environment: environment, limit: limit) }
    }

    /// `run` on the calling thread, for the rare caller that must block (inside
    /// a database transaction, which runs on GRDB's own queue).
    func runBlocking(_ arguments: [String], limit: Duration = .seconds(30)) throws -> Subprocess.Output {
        try Subprocess.run(Self.executable(program).path, arguments, environment: environment, limit: limit)
    }

    /// A runner that reaches the lab's Avahi and uses a database file of its own.
    static func forLab(_ lab: PrinterLab) -> (CommandRunner, String) {
        let database = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-cli-\(UUID().uuidString)/kioskprint.sqlite").path
        let runner = CommandRunner(environment: ["DBUS_SYSTEM_BUS_ADDRESS": lab.busAddress,
                                                 "KIOSKPRINT_DATABASE": database])
        return (runner, database)
    }
}
