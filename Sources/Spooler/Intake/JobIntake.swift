public import Foundation
public import PrintModel
import Rendering
public import Store
public import Templates
import Synchronization

/// Takes a job in, for every way one arrives (the command line, a watched
/// folder, a button): checks it first, so a mistake is refused with its
/// reason before anything is stored, then queues it durably.
///
/// A template is laid out for the role's printer to check it. With a
/// `preparer` that keeps drawings (the agent's, shared with its spooler) it
/// is also drawn for that printer while the job is written to the queue, and
/// the spooler sends that drawing; it draws again only for another printer
/// (a backup, a changed roll). A file is copied into the spool folder and
/// checked there, so the original may go away at once.
public struct JobIntake: Sendable {
    public let store: KioskStore
    public let catalog: TemplateCatalog
    /// Where copies of printer-ready files wait until printed.
    public let spoolFolder: String
    /// Draws template jobs at intake for the spooler of this process, when
    /// it keeps drawings (`DocumentPreparer.drawnAhead`); without those (or
    /// nil) it checks only. Its `rawDelivery` shapes previews either way.
    public let preparer: DocumentPreparer?

    public init(store: KioskStore, catalog: TemplateCatalog, spoolFolder: String? = nil,
                preparer: DocumentPreparer? = nil) {
        self.store = store
        self.catalog = catalog
        self.spoolFolder = spoolFolder ?? Self.spoolFolder(forDatabase: store.path)
        self.preparer = preparer
    }

    /// The same intake without drawing ahead: jobs are checked and queued,
    /// and drawn when sent. For callers that wait on the answer (the HTTP API),
    /// where the drawing would add to every request's time.
    /// It keeps the preparer's settings (a preview draws as the role's
    /// printer will print), not its drawings.
    public var checkingOnly: JobIntake {
        var settings = preparer
        settings?.drawnAhead = nil
        return JobIntake(store: store, catalog: catalog, spoolFolder: spoolFolder, preparer: settings)
    }

    /// The spool folder beside a database: `<its folder>/spool`.
    public static func spoolFolder(forDatabase path: String) -> String {
        (path as NSString).deletingLastPathComponent + "/spool"
    }

    /// Queues a template with its data (a JSON object's text).
    ///
    /// - Parameters:
    ///   - dataFile: what messages call the data, e.g. `order-4711.json`.
    ///   - jobName: the job's name; nil for "TEMPLATE date time".
    ///   - source: where it came from (a claimed file's path), kept with the job.
    ///   - opensDrawer: kick the cash drawer after the job's cut.
    ///   - submittedBy: the API token that sends it (it may cancel and retry it); nil elsewhere.
    ///   - primary: the role's primary printer as the caller read it just
    ///     before; nil (or another role's) reads it here.
    public func queueTemplate(_ name: String, dataJSON: String, dataFile: String, role: Role,
                              jobName: String? = nil, copies: Int = 1, source: String? = nil,
                              opensDrawer: Bool = false, idempotency: IdempotencyKey? = nil, submittedBy: String? = nil,
                              primary: RolePrimary? = nil) async throws(IntakeError) -> PrintJob {
        try await queueTemplate(name, dataJSON: dataJSON, parsed: nil, dataFile: dataFile, role: role, jobName: jobName,
                                copies: copies, source: source, opensDrawer: opensDrawer, idempotency: idempotency,
                                submittedBy: submittedBy, primary: primary)
    }

    /// `queueTemplate` with the data possibly read already (`parsed`, from
    /// `dataJSON`'s bytes), so the check does not read it again.
    private func queueTemplate(_ name: String, dataJSON: String, parsed: TemplateData?, dataFile: String, role: Role,
                               jobName: String?, copies: Int, source: String?, opensDrawer: Bool,
                               idempotency: IdempotencyKey?, submittedBy: String? = nil,
                               primary: RolePrimary?) async throws(IntakeError) -> PrintJob {
        let origin = source
        let source: TemplateSource
        do { source = try catalog.find(name) } catch { throw IntakeError(.refused, "\(error)") }
        let printer: SavedPrinter?
        if let primary, primary.role == role { printer = primary.printer } else { printer = try await primaryPrinter(of: role) }
        var media: PageGeometry?
        if let printer {
            do { media = try MediaSelection.media(for: source.parse().page, on: printer.capabilities) } catch {
                throw IntakeError(.refused, "\(error)")
            }
        }
        let name = jobName ?? JobName.cleaned("\(source.name) \(Self.timestamp())")
        let content = JobContent.template(name: source.name, dataJSON: dataJSON)
        guard let printer, let media, let drawing = preparer, let drawnAhead = drawing.drawnAhead else {
            let check = if let parsed {
                TemplateCheck.run(source, data: parsed, media: media)
            } else {
                TemplateCheck.run(source, dataJSON: Data(dataJSON.utf8), dataFile: dataFile, media: media)
            }
            guard check.isClean else { throw IntakeError(.refused, check.errors.joined(separator: "\n")) }
            return try await queue(name: name, role: role, content: content, copies: copies, source: origin,
                                   opensDrawer: opensDrawer, idempotency: idempotency, submittedBy: submittedBy)
        }
        // Checked and laid out once; drawn from that layout while the job is
        // written (and synced) to the queue, on this thread, as Pango needs.
        let started = ContinuousClock.now
        let (check, kept) = Self.layOut(source, dataJSON: dataJSON, parsed: parsed, dataFile: dataFile, media: media,
                                        keepingUpTo: drawnAhead.limits.documentBytes)
        guard check.isClean else { throw IntakeError(.refused, check.errors.joined(separator: "\n")) }
        guard var laidOut = kept else {
            return try await queue(name: name, role: role, content: content, copies: copies, source: origin,
                                   opensDrawer: opensDrawer, idempotency: idempotency, submittedBy: submittedBy)
        }
        // The drawing is announced inside the insert's transaction, so a
        // spooler that claims the job before it is done waits for it.
        let inserted = Mutex<JobID?>(nil)
        async let queued = queueResult(name: name, role: role, content: content, copies: copies, source: origin,
                                       opensDrawer: opensDrawer, idempotency: idempotency, submittedBy: submittedBy) { id in
            inserted.withLock { $0 = id }
            drawnAhead.expect(job: id, printer: printer)
        }
        let document = drawing.drawAhead(&laidOut, for: printer.capabilities,
                                         deviceText: drawing.deviceText(role: role, printer: printer))
        if document != nil { SpoolerMetrics.recordDrawing(ContinuousClock.now - started, role: role) }
        let result = await queued
        if let id = inserted.withLock({ $0 }) { drawnAhead.deliver(document, job: id) }
        return try result.get()
    }

    /// The check, and its layout when its ink fits `limit`. A long document (a
    /// report, a hostile 20,000-line receipt) is drawn piece by piece when
    /// sent; its layout is let go here, before the job is queued and the
    /// spooler lays it out again, so that two are never held at once.
    private static func layOut(_ source: TemplateSource, dataJSON: String, parsed: TemplateData?, dataFile: String,
                               media: PageGeometry, keepingUpTo limit: Int) -> (check: TemplateCheck, laidOut: LaidOutJob?) {
        let (check, laidOut) = if let parsed {
            TemplateCheck.layOut(source, data: parsed, media: media)
        } else {
            TemplateCheck.layOut(source, dataJSON: Data(dataJSON.utf8), dataFile: dataFile, media: media)
        }
        guard let laidOut, inkBytes(laidOut) <= limit else { return (check, nil) }
        return (check, laidOut)
    }

    /// The one-bit ink a laid-out job would be drawn as: what drawing it ahead would hold.
    static func inkBytes(_ laidOut: borrowing LaidOutJob) -> Int {
        let rows = laidOut.cutLengths.reduce(0) { $0 + $1.dots(at: laidOut.media.resolution.vertical) }
        return rows * (laidOut.media.widthInDots + 7) / 8
    }

    /// `queue` with its error as a value, for an `async let`.
    private func queueResult(name: String, role: Role, content: JobContent, copies: Int, source: String?,
                             opensDrawer: Bool, idempotency: IdempotencyKey?, submittedBy: String?,
                             whenInserted: @escaping @Sendable (JobID) -> Void) async -> Result<PrintJob, IntakeError> {
        do {
            return .success(try await queue(name: name, role: role, content: content, copies: copies, source: source,
                                            opensDrawer: opensDrawer, idempotency: idempotency, submittedBy: submittedBy,
                                            whenInserted: whenInserted))
        } catch { return .failure(error) }
    }

    /// Queues a template with its data as the bytes of a file (`print --data`,
    /// a folder's data file), read by the same strict reader as `templates
    /// check`: bytes that are not UTF-8 are refused, not replaced, and so is
    /// data over `TemplateLimits`.
    public func queueTemplate(_ name: String, data: Data, dataFile: String, role: Role,
                              jobName: String? = nil, copies: Int = 1, source: String? = nil,
                              opensDrawer: Bool = false, primary: RolePrimary? = nil) async throws(IntakeError) -> PrintJob {
        let parsed: TemplateData
        do { parsed = try TemplateData(json: data, file: dataFile) } catch {
            throw IntakeError(.refused, error.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return try await queueTemplate(name, dataJSON: String(decoding: data, as: UTF8.self), parsed: parsed,
                                       dataFile: dataFile, role: role, jobName: jobName, copies: copies, source: source,
                                       opensDrawer: opensDrawer, idempotency: nil, primary: primary)
    }

    /// Queues a file as it is: a printer-ready file (PDF, PNG or JPEG), or
    /// printer-language bytes (`.zpl`, `.escpos`; `.bin` and `.prn` with
    /// `language`), which go only to a role with a printer of that language.
    ///
    /// - Parameter language: the language of a `.bin` or `.prn` file; nil otherwise.
    public func queueFile(_ path: String, role: Role, language: PrinterLanguage? = nil, jobName: String? = nil,
                          copies: Int = 1, source: String? = nil, opensDrawer: Bool = false,
                          idempotency: IdempotencyKey? = nil, submittedBy: String? = nil,
                          id: JobID? = nil) async throws(IntakeError) -> PrintJob {
        let kind = (path as NSString).pathExtension.lowercased()
        let original = (path as NSString).lastPathComponent
        if Self.languageFileExtensions.contains(kind) {
            return try await queueLanguageFile(path, language: language, role: role, jobName: jobName, copies: copies,
                                               source: source, opensDrawer: opensDrawer, submittedBy: submittedBy, id: id)
        }
        if let language {
            throw IntakeError(.refused, "\(original) was given the language \(language), but only a printer-language file "
                + "(.zpl, .escpos, .bin or .prn) has one. Leave the language out to print it as it is.")
        }
        guard ["pdf", "png", "jpg", "jpeg", "pwg", "urf"].contains(kind) else {
            throw IntakeError(.refused, "\(original) is not a PDF, PNG, JPEG, PWG raster or URF file, the formats printed as they are, "
                + "nor printer-language bytes (.zpl, .escpos, or .bin and .prn with their language).")
        }
        return try await queueReadyFile(try keep(path), named: original, kind: kind, role: role, jobName: jobName, copies: copies,
                                        source: source, opensDrawer: opensDrawer, idempotency: idempotency, submittedBy: submittedBy, id: id)
    }

    /// Queues a document that came as bytes (an IPP Print-Job, an API
    /// upload), as `queueFile` queues a file: written once, into the spool
    /// folder, and checked there. `name` is what messages call it
    /// (`document.pdf`); its ending says what it is.
    public func queueDocument(_ data: Data, named name: String, role: Role, language: PrinterLanguage? = nil,
                              jobName: String? = nil, copies: Int = 1, source: String? = nil,
                              idempotency: IdempotencyKey? = nil, submittedBy: String? = nil,
                              id: JobID? = nil) async throws(IntakeError) -> PrintJob {
        let kind = (name as NSString).pathExtension.lowercased()
        if Self.languageFileExtensions.contains(kind) || language != nil {
            let language = try Self.language(ofFile: name, given: language)
            try await checkRole(role, takes: language, file: name)
            return try await queueSpooled(try keep(data, named: name), language: language, file: name, role: role,
                                          jobName: jobName ?? JobName.cleaned(name), copies: copies, source: source, opensDrawer: false,
                                          submittedBy: submittedBy, id: id)
        }
        guard ["pdf", "png", "jpg", "jpeg", "pwg", "urf", "xml"].contains(kind) else {
            throw IntakeError(.refused, "\(name) is not a PDF, PNG, JPEG, PWG raster, URF, ePOS-Print or WebPRNT document, nor printer-language bytes.")
        }
        return try await queueReadyFile(try keep(data, named: name), named: name, kind: kind, role: role, jobName: jobName,
                                        copies: copies, source: source, opensDrawer: false, idempotency: idempotency,
                                        submittedBy: submittedBy, id: id)
    }

    /// Checks a printer-ready file already in the spool folder and queues it; removes it when it is refused.
    private func queueReadyFile(_ spooled: String, named original: String, kind: String, role: Role, jobName: String?,
                                copies: Int, source: String?, opensDrawer: Bool, idempotency: IdempotencyKey?,
                                submittedBy: String?, id: JobID?) async throws(IntakeError) -> PrintJob {
        do { _ = try PrinterReadyFile.check(path: spooled) } catch {
            try? FileManager.default.removeItem(atPath: spooled)
            // The check names the spool copy; the person knows the file by its own name.
            let reason = "\(error)".replacingOccurrences(of: spooled + " cannot be printed: ", with: "")
                .replacingOccurrences(of: spooled, with: original)
            throw IntakeError(.refused, "\(original): \(reason)")
        }
        do {
            return try await queue(name: jobName ?? JobName.cleaned(original), role: role,
                                   content: .document(path: spooled, format: kind == "jpeg" ? "jpg" : kind), copies: copies,
                                   source: source, opensDrawer: opensDrawer, idempotency: idempotency, submittedBy: submittedBy, id: id)
        } catch {
            try? FileManager.default.removeItem(atPath: spooled)
            throw error
        }
    }

    /// Queues a job that was checked before, e.g. a reprint of a stored job.
    public func queue(name: String, role: Role, content: JobContent, copies: Int = 1,
                      source: String? = nil, opensDrawer: Bool = false,
                      idempotency: IdempotencyKey? = nil, submittedBy: String? = nil, id: JobID? = nil,
                      whenInserted: (@Sendable (JobID) -> Void)? = nil) async throws(IntakeError) -> PrintJob {
        // The store refuses such a name too; here it is the job that is wrong, not the storage.
        if let problem = JobName.problem(name) { throw IntakeError(.refused, problem.prefix(1).uppercased() + problem.dropFirst()) }
        do {
            return try await store.enqueue(name: name, role: role, content: content, copies: copies, source: source,
                                           opensDrawer: opensDrawer, idempotency: idempotency, submittedBy: submittedBy,
                                           id: id, whenInserted: whenInserted)
        } catch {
            throw IntakeError(.notStored, "the job could not be written to the queue: \(store.explain(error)) Nothing was queued.")
        }
    }

    /// The role's primary printer, nil when no printer holds the role yet.
    public func primaryPrinter(of role: Role) async throws(IntakeError) -> SavedPrinter? {
        do { return try await store.assignments(for: role).first(where: \.isPrimary)?.printer } catch {
            throw IntakeError(.notStored, "the saved printers could not be read: \(store.explain(error))")
        }
    }

    /// Copies `file` into the spool folder, under a name of its own; returns the copy's path.
    func keep(_ file: String) throws(IntakeError) -> String {
        let target = spoolPath(for: (file as NSString).lastPathComponent)
        do {
            try makeSpoolFolder()
            try FileManager.default.copyItem(atPath: file, toPath: target)
        } catch {
            throw IntakeError(.notStored, "\(file) could not be copied into the spool folder \(spoolFolder) "
                + "(\(error.localizedDescription)). Check the path, its permissions and the free disk space; nothing was queued.")
        }
        return target
    }

    /// Writes `data` into the spool folder as a file named after `name`; returns its path.
    func keep(_ data: Data, named name: String) throws(IntakeError) -> String {
        let target = spoolPath(for: name)
        do {
            try makeSpoolFolder()
            try data.write(to: URL(fileURLWithPath: target), options: .withoutOverwriting)
        } catch {
            throw IntakeError(.notStored, "\(name) could not be written into the spool folder \(spoolFolder) "
                + "(\(error.localizedDescription)). Check its permissions and the free disk space; nothing was queued.")
        }
        return target
    }

    private func spoolPath(for name: String) -> String {
        spoolFolder + "/" + UUID().uuidString.prefix(8) + "-" + name
    }

    private func makeSpoolFolder() throws {
        try KioskStore.prepareFolder(at: spoolFolder)
    }

    private static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date())
    }
}

/// Why a job was not taken in.
public struct IntakeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The job itself is wrong: its template, data or file. Sending it
        /// again as it is will fail again.
        case refused
        /// The job may be fine, but it could not be stored (disk full, a
        /// permission): trying again later may work.
        case notStored
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
