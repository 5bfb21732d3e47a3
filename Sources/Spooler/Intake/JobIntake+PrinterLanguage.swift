public import Foundation
public import PrintModel
import Store

/// Raw passthrough: ZPL or ESC/POS that a carrier's label service or a POS
/// program already produced, queued as it is. It is refused before it is
/// queued unless a printer of the role takes its language, because no
/// printer of another language could ever print it.
extension JobIntake {
    /// The endings of printer-language files: `.zpl` and `.escpos` say their
    /// language; `.bin` and `.prn` need it given.
    public static let languageFileExtensions: Set<String> = Set(PrinterLanguage.allCases.map(\.facts.fileExtension) + ["bin", "prn"])

    /// Queues a printer-language file: copied into the spool folder, checked
    /// there (size, and the language's shape), stored as `.document(path:,
    /// format: language.rawValue)`.
    ///
    /// - Parameter language: the language of a `.bin` or `.prn` file. For
    ///   `.zpl` and `.escpos` it may be left out, and must match when given.
    /// - Parameter opensDrawer: must be false: see ``checkNoDrawer(_:file:language:)``.
    public func queueLanguageFile(_ path: String, language: PrinterLanguage? = nil, role: Role, jobName: String? = nil,
                                  copies: Int = 1, source: String? = nil, opensDrawer: Bool = false,
                                  submittedBy: String? = nil, id: JobID? = nil) async throws(IntakeError) -> PrintJob {
        let original = (path as NSString).lastPathComponent
        let language = try Self.language(ofFile: original, given: language)
        try Self.checkNoDrawer(opensDrawer, file: original, language: language)
        try await checkRole(role, takes: language, file: original)
        let spooled = try keep(path)
        return try await queueSpooled(spooled, language: language, file: original, role: role, jobName: jobName ?? JobName.cleaned(original),
                                      copies: copies, source: source, opensDrawer: opensDrawer, submittedBy: submittedBy, id: id)
    }

    /// Queues printer-language bytes that came inside another file (a job
    /// envelope's `"zpl"`), written to the spool folder first.
    ///
    /// - Parameter file: what messages call the bytes: the file they came in, e.g. `label-4711.json`.
    public func queueLanguageBytes(_ data: Data, language: PrinterLanguage, file: String, role: Role,
                                   jobName: String? = nil, copies: Int = 1, source: String? = nil,
                                   opensDrawer: Bool = false) async throws(IntakeError) -> PrintJob {
        try Self.checkNoDrawer(opensDrawer, file: file, language: language)
        try await checkRole(role, takes: language, file: file)
        let stem = (file as NSString).deletingPathExtension
        let spooled = try keep(data, named: "\(stem.isEmpty ? "job" : stem).\(language.rawValue)")
        return try await queueSpooled(spooled, language: language, file: file, role: role,
                                      jobName: jobName ?? JobName.cleaned(stem), copies: copies, source: source, opensDrawer: opensDrawer)
    }

    /// Passed-through bytes are sent exactly as they are, so the channel adds
    /// no drawer pulse after them; a kick asked for would silently not happen.
    /// It is refused instead: ESC/POS that should open the drawer carries its
    /// own `ESC p` (Epson ESC/POS reference: ESC p m t1 t2, generate pulse).
    static func checkNoDrawer(_ opensDrawer: Bool, file: String, language: PrinterLanguage) throws(IntakeError) {
        guard opensDrawer else { return }
        let pulse = switch language {
        case .escpos: "(ESC p) in the ESC/POS itself."
        case .zpl: "in a receipt job: a ZPL label printer has no drawer port."
        case .starGraphic, .starLine, .starPRNT: "(BEL for the first drawer, SUB for the second) in the \(language) itself."
        }
        throw IntakeError(.refused, "\(file) is \(language) sent as it is, and KioskPrint adds nothing to such bytes, "
            + "so it cannot kick the cash drawer after them. Leave out the drawer option, and put the drawer pulse " + pulse)
    }

    /// The language of a file from its name and the language given, or why neither says.
    static func language(ofFile file: String, given: PrinterLanguage?) throws(IntakeError) -> PrinterLanguage {
        let ending = (file as NSString).pathExtension.lowercased()
        guard languageFileExtensions.contains(ending) else {
            throw IntakeError(.refused, "\(file) is not a printer-language file: those end in .zpl, .escpos, .stargraphic, .starline, "
                + ".starprnt, or .bin and .prn with their language given.")
        }
        let named = PrinterLanguageFile.language(ofFile: file, given: nil)
        if let named, let given, named != given {
            throw IntakeError(.refused, "\(file) is named as \(named) (.\(ending)), but its language was given as \(given). "
                + "Rename the file, or give the language it is written in.")
        }
        guard let language = named ?? given else {
            throw IntakeError(.refused, "\(file) does not say which printer language it is in: give it with "
                + "--language escpos or --language zpl, or name the file .escpos or .zpl.")
        }
        return language
    }

    /// Refuses unless a printer of `role` (the primary or any backup) takes
    /// `language`: a raw printer of that language, or an IPP printer listing
    /// its MIME type (LPrint lists `application/vnd.zebra-zpl`). A role no
    /// printer holds is refused too: nothing can say the job could ever print.
    func checkRole(_ role: Role, takes language: PrinterLanguage, file: String) async throws(IntakeError) {
        let printers: [SavedPrinter]
        do { printers = try await store.assignments(for: role).map(\.printer) } catch {
            throw IntakeError(.notStored, "the saved printers could not be read: \(store.explain(error))")
        }
        guard !printers.isEmpty else {
            throw IntakeError(.refused, "\(file) is \(language) for the role \(role), but no printer holds that role yet, so "
                + "whether it takes \(language) cannot be checked, and the job might never print. Save the role's printer "
                + "first (`kioskprint printers add URI --role \(role)`), then queue it again.")
        }
        guard printers.contains(where: { $0.capabilities.documentFormats.contains(language.mimeType) }) else {
            let found = printers.map { "\"\($0.name)\" takes \(Self.formats(of: $0.capabilities))" }.joined(separator: "; ")
            throw IntakeError(.refused, "\(file) is \(language), and no printer of the role \(role) takes \(language) "
                + "(\(found)). Send it to a role whose printer speaks \(language), or print a template or a PDF for \(role).")
        }
    }

    /// What a printer takes, in words: its raw language, or the formats it lists.
    private static func formats(of capabilities: PrinterCapabilities) -> String {
        if let profile = capabilities.rawProfile { return "\(profile.language) only" }
        return capabilities.documentFormats.isEmpty ? "no format it lists" : capabilities.documentFormats.joined(separator: ", ")
    }

    /// Checks the spooled copy (the bytes that will be sent) and queues it;
    /// the copy is removed again when the job is not queued.
    func queueSpooled(_ spooled: String, language: PrinterLanguage, file: String, role: Role, jobName: String,
                              copies: Int, source: String?, opensDrawer: Bool, submittedBy: String? = nil,
                              id: JobID? = nil) async throws(IntakeError) -> PrintJob {
        do { _ = try PrinterLanguageFile.read(path: spooled, language: language) } catch {
            try? FileManager.default.removeItem(atPath: spooled)
            guard case .unreadableFile(_, let reason) = error else { throw IntakeError(.refused, "\(file): \(error)") }
            throw IntakeError(.refused, "\(file) cannot be printed as \(language): \(reason).")
        }
        do {
            return try await queue(name: jobName, role: role, content: .document(path: spooled, format: language.rawValue),
                                   copies: copies, source: source, opensDrawer: opensDrawer, submittedBy: submittedBy, id: id)
        } catch {
            try? FileManager.default.removeItem(atPath: spooled)
            throw error
        }
    }
}
