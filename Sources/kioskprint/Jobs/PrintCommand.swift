import Agent
import ArgumentParser
import CommandLineOutput
import Foundation
import PrintModel
import Rendering
import Spooler
import Store
import Templates

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
        // With --wait and no agent running, this process prints the job (the
        // watch draws it once, as it is taken in, and sends that drawing).
        let watch = JobWatch(store: store, catalog: templates.catalog, databasePath: databasePath, printing: wait) { print($0) }
        let intake = watch.intake
        // Read once: the template is drawn for it, the note below names its absence,
        // and a printer this process prints on is asked whether it is ready while
        // the job is drawn and stored, instead of after.
        let primary: RolePrimary
        do throws(IntakeError) { primary = try await intake.readPrimary(of: role) } catch { throw CLIError(error.message) }
        let readinessAsked: Task<Void, Never>? = if let spooler = watch.spooler, let printer = primary.printer {
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
        let ended = try await watch.delivered(job.id)
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
