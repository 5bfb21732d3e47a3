import ArgumentParser
import CommandLineOutput
import Foundation
import PrintModel
import Rendering
import Spooler
import Store
import Templates
import Triggers

/// `kioskprint print`: queue a job for a role, durably, and (with --wait) see it printed.
struct PrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Queue a template, a PDF, PNG or JPEG file, or ZPL or ESC/POS bytes for the printer that holds a role.",
        discussion: """
        The job is checked, then written to the database before anything else happens, and its id is printed. \
        A running agent (`kioskprint run`) prints it; with --wait this command follows it to the end (and \
        prints it itself when no agent runs), exiting with status 1 if it fails.

        A printer-language file (.zpl, .escpos; .bin or .prn with --language) is sent as it is, and only to a \
        printer of that language: it is refused, before it is queued, when no printer of the role takes it.

        Examples:
          kioskprint print receipt --data order-4711.json --role receipt --name "Receipt 4711, till 3" --wait --drawer
          kioskprint print --file ticket.pdf --role boarding-pass
          kioskprint print --file label.zpl --role label
          kioskprint print --file receipt.bin --language escpos --role receipt
        """)

    @Argument(help: "A template's name in the catalog (see `kioskprint templates list`); a job never names a file. Omit it with --file.")
    var template: String?

    @Option(help: ArgumentHelp("The job's data, a JSON object (default: the template's sample data).", valueName: "file.json"))
    var data: String?

    @Option(help: ArgumentHelp("A file instead of a template: PDF, PNG or JPEG, or printer-language bytes "
                               + "(.zpl, .escpos; .bin or .prn with --language).", valueName: "path"))
    var file: String?

    @Option(help: ArgumentHelp("The printer language of a --file ending in .bin or .prn: escpos or zpl.", valueName: "language"),
            transform: PrintCommand.language)
    var language: PrinterLanguage?

    @Option(help: "The role whose printer prints it.")
    var role: Role

    @Option(help: ArgumentHelp("The job's name on the printer and in job lists, e.g. \"Receipt 4711, till 3\".", valueName: "text"))
    var name: String?

    @Option(help: "Copies.")
    var copies: Int = 1

    @Flag(help: "Kick the cash drawer after the job is cut (a receipt printer with a drawer port).")
    var drawer = false

    @Flag(help: "Wait until the job has printed (or failed), and say so.")
    var wait = false

    @OptionGroup var templates: TemplateFolderOptions
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if (template == nil) == (file == nil) {
            throw ValidationError("Give a template name, or --file with a PDF, PNG, JPEG or printer-language file, but not both.")
        }
        if file != nil, data != nil { throw ValidationError("--data goes with a template, not with --file.") }
        if file == nil, language != nil { throw ValidationError("--language goes with --file (a .bin or .prn file), not with a template.") }
        guard (1...99).contains(copies) else { throw ValidationError("--copies \(copies): give 1 to 99.") }
        if let name, let problem = JobName.problem(name) { throw ValidationError("--name: \(problem)") }
    }

    func run() async throws {
        let store = try database.open()
        let databasePath = DatabaseLocation.resolve(explicit: database.database)
        // With --wait and no agent running, this process prints the job: draw it
        // once, as it is taken in, and send that drawing.
        let printsHere = wait && !AgentLock(databasePath: databasePath).isHeld
        let preparer = DocumentPreparer(catalog: templates.catalog, drawnAhead: printsHere ? DrawnDocuments() : nil)
        let intake = JobIntake(store: store, catalog: templates.catalog, preparer: preparer)
        // Read once: the template is drawn for it, the note below names its absence,
        // and a printer this process prints on is asked whether it is ready while
        // the job is drawn and stored, instead of after.
        let primary: RolePrimary
        do throws(IntakeError) { primary = try await intake.readPrimary(of: role) } catch { throw CLIError(error.message) }
        let spooler = printsHere ? JobWatch.spooler(store: store, preparer: preparer) : nil
        let readinessAsked: Task<Void, Never>? = if let spooler, let printer = primary.printer {
            Task { await spooler.askReadiness(of: printer) }
        } else { nil }
        let job: PrintJob
        let data = file == nil ? try dataJSON() : nil
        do throws(IntakeError) {
            if let file {
                job = try await intake.queueFile(file, role: role, language: language, jobName: name, copies: copies,
                                                 opensDrawer: drawer)
            } else if let (json, dataFile) = data {
                job = try await intake.queueTemplate(template!, data: json, dataFile: dataFile, role: role,
                                                     jobName: name, copies: copies, opensDrawer: drawer, primary: primary)
            } else { return }
        } catch {
            // A refused file's message already says what to do; a template's points at the line to fix.
            let hint = file == nil ? "Nothing was queued: fix the template or its data." : "Nothing was queued."
            throw CLIError(error.message + (error.kind == .refused ? "\n" + hint : ""))
        }
        print("Job \(job.id) queued for the role \(role): \"\(job.name)\".")
        if primary.printer == nil {
            print("Note: no printer holds the role \(role) yet; the job waits until one does "
                  + "(`kioskprint printers pick --role \(role)`).")
        }
        guard wait else { return }

        await readinessAsked?.value
        let ended = try await JobWatch.delivered(job.id, store: store, preparer: preparer, databasePath: databasePath,
                                                 spooler: spooler)
        guard ended.state == .completed else {
            throw CLIError("Job \(ended.id) \(ended.state): \(ended.lastError ?? "no reason given"). "
                + "See `kioskprint jobs show \(ended.id)`; `kioskprint jobs retry \(ended.id)` sends it again.")
        }
        print("Job \(ended.id) printed on \(ended.printer?.name ?? "the printer").")
    }

    /// Whether `arguments` (the command line after the program) print a
    /// template, which lays text out: `print` without `--file` (`validate`
    /// takes a template or --file, never both). Read before they are parsed,
    /// to start fontconfig early, and the only place the warm-up begins; a
    /// command that then fails to parse has only started that thread.
    static func laysOutText(_ arguments: ArraySlice<String>) -> Bool {
        arguments.first == configuration.commandName && !arguments.contains { $0 == "--file" || $0.hasPrefix("--file=") }
    }

    /// `--language`: a transform rather than an ExpressibleByArgument conformance, which
    /// another command may want to declare differently.
    static func language(_ text: String) throws -> PrinterLanguage {
        guard let language = PrinterLanguage(userWord: text) else {
            throw ValidationError("\"\(text)\" is not a printer language: use escpos or zpl.")
        }
        return language
    }

    /// The job's data as it is in the --data file (read strictly at intake, as
    /// `templates check` reads it), else the template's sample data.
    private func dataJSON() throws -> (json: Data, file: String) {
        if let data {
            guard let bytes = FileManager.default.contents(atPath: data) else {
                throw CLIError("The data file \(data) cannot be read. Check the path and its permissions.")
            }
            return (bytes, data)
        }
        let source = try CLIError.wrap { try templates.catalog.find(template!) }
        return (Data((source.sampleData ?? "{}").utf8), "\(source.name) sample data")
    }
}

/// Following a job to its end from the command line.
enum JobWatch {
    /// The job as it ended: followed while a running agent prints it, or
    /// printed from this process when no agent holds the lock.
    /// - Parameter spooler: the spooler to print with when no agent runs
    ///   (one that already asked the printer), else a new one.
    static func delivered(_ id: JobID, store: KioskStore, preparer: DocumentPreparer, databasePath: String,
                          spooler: Spooler? = nil) async throws -> PrintJob {
        if AgentLock(databasePath: databasePath).isHeld {
            print("Waiting for the agent to print it...")
            return try await untilEnded(id, store: store)
        }
        print("No agent is running; printing it from here...")
        return try await (spooler ?? Self.spooler(store: store, preparer: preparer)).deliver(id)
    }

    /// The spooler a command prints with when no agent runs: its events go to
    /// standard output, and it looks at its one job at the printer every
    /// `firstFollowLook` at first (a few more requests, for a process that
    /// only waits for this job's end).
    static func spooler(store: KioskStore, preparer: DocumentPreparer) -> Spooler {
        var configuration = SpoolerConfiguration()
        configuration.firstFollowWait = firstFollowLook
        return Spooler(store: store, preparer: preparer, configuration: configuration) { print($0.description) }
    }

    /// 4 ms: an instant printer's receipt ends 5 to 15 ms after Print-Job.
    static let firstFollowLook = Duration.milliseconds(4)

    /// Follows a job another process prints, reporting each change of state.
    /// It reads the job again each time the database's progress file is
    /// touched (the agent touches it after every change to a job it holds),
    /// and every `safetyLook` besides. Asking every 50 ms instead, `print
    /// --wait` beside the lab's agent took 83 ms, against 50 with the file.
    static func untilEnded(_ id: JobID, store: KioskStore) async throws -> PrintJob {
        let progress = try? DatabaseChanges(touchesOf: store.progressFilePath)
        let (looks, look) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let feeders = Task {
            await withTaskGroup(of: Void.self) { group in
                if let progress { group.addTask { for await _ in progress.writes { look.yield() } } }
                group.addTask {
                    // Without inotify (none left), as often as before.
                    let spacing = progress == nil ? Duration.milliseconds(50) : safetyLook
                    while (try? await Task.sleep(for: spacing)) != nil { look.yield() }
                }
            }
        }
        defer {
            feeders.cancel()
            progress?.stop()
            look.finish()
        }
        var last: (JobState, String?)?
        var pending = looks.makeAsyncIterator()
        repeat {
            let job = try await store.job(id)
            if last?.0 != job.state || last?.1 != job.lastError {
                print("job \(job.id): \(job.state)\(job.state == .waiting ? " (\(job.lastError ?? ""))" : "")")
                last = (job.state, job.lastError)
            }
            if job.state.isTerminal { return job }
        } while await pending.next() != nil
        throw CancellationError()
    }

    /// How often a follower reads the job with no word from the progress
    /// file: a change whose touch it missed (the file removed meanwhile) is
    /// seen within this.
    static let safetyLook = Duration.seconds(1)
}
