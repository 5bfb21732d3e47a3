import ArgumentParser
import Dispatch
import Foundation
import Service
import Spooler
import Store
import Templates

/// `kioskprint run`: the agent. For now it runs the spooler for every role
/// until SIGTERM or SIGINT; triggers and the service configuration come with
/// the agent issue.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the agent: print queued jobs for every role until stopped (SIGTERM, Ctrl-C).",
        discussion: "Only one agent runs per database; a second one exits. Jobs are claimed in the database, so none is ever sent twice.")

    @OptionGroup var templates: TemplateFolderOptions
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let path = try DatabaseLocation.resolve(explicit: database.database)
        let store = try database.open()
        guard let lock = AgentLock(databasePath: path).acquire() else {
            throw CLIError("Another kioskprint agent is already running for \(path). Stop it first, or give this one its own --database.")
        }
        defer { close(lock) }
        let spooler = Spooler(store: store, preparer: DocumentPreparer(catalog: templates.catalog)) { event in
            FileHandle.standardError.write(Data((event.description + "\n").utf8))
        }
        FileHandle.standardError.write(Data("kioskprint agent running on \(path) (pid \(getpid())).\n".utf8))
        let notifier = ServiceNotifier()
        let work = Task { try await spooler.run() }
        let stop = StopSignals.install {
            notifier.stopping()
            work.cancel()
        }
        defer { _ = stop }
        let roles = try await store.assignments().count
        notifier.ready(status: "printing for \(roles) role assignment(s); \(try await store.queueDepth()) job(s) queued")
        let watchdog = notifier.watchdogInterval.map { interval in
            Task {
                while !Task.isCancelled {
                    notifier.watchdog()
                    try await Task.sleep(for: interval)
                }
            }
        }
        defer { watchdog?.cancel() }
        do { try await work.value } catch is CancellationError {}
        FileHandle.standardError.write(Data("kioskprint agent stopped; the queue is kept.\n".utf8))
    }
}

/// SIGTERM and SIGINT cancel the agent's work instead of killing the process,
/// so the job being sent is finished or left to be found again by its marker.
enum StopSignals {
    static func install(_ stop: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
    }
}
