import ArgumentParser
import CommandLineOutput
import Foundation
import PrintModel
import PrinterLanguages
import Rendering
import Spooler
import Store
import Templates

/// `kioskprint render TEMPLATE --data FILE.json --out FILE`: a template drawn
/// for a role's printer or a given page, as PNG, PDF, PWG or URF.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a template with data into a PNG, PDF, PWG or URF file, and show where the paper is cut.",
        discussion: """
        The page is the printer's that holds --role (its roll width, margins and resolution), \
        or a preview page: --width (80mm for roll templates; a fixed-size template gets its own size) at --dpi. \
        Without --data the template's sample data is used.

        Examples:
          kioskprint render receipt --out receipt.png
          kioskprint render receipt --data order.json --role receipt --out receipt.pwg
          kioskprint render boarding-pass-ticket --out pass.pdf
          kioskprint render receipt --role receipt --delivery native --out receipt.png

        A PNG for --role shows what the role's printer prints: with --delivery native (or auto, the \
        default, on a serial line at 115200 baud or slower) the text an ESC/POS printer prints in its \
        own font is shown in a fixed-pitch stand-in for it. Without --role, --delivery native shows an \
        Epson TM-series receipt printer's.
        """)

    @Argument(help: "A template name (see `kioskprint templates list`) or a template file.")
    var template: String

    @Option(help: ArgumentHelp("The job's data, a JSON object.", valueName: "file.json"))
    var data: String?

    @Option(help: "Draw for the printer that holds this role (its saved capabilities).")
    var role: Role?

    @Option(help: ArgumentHelp("Preview page width, e.g. 80mm, 58mm, 4in.", valueName: "length"))
    var width: Length?

    @Option(help: "Preview resolution in dots per inch.")
    var dpi: Int = 203

    @Option(help: ArgumentHelp("The file to write; its extension picks the format: .png, .pdf, .pwg or .urf.",
                               valueName: "file"))
    var out: String

    @Flag(help: "Write 8-bit grey raster (sgray_8) instead of 1-bit black (black_1) to .pwg.")
    var gray = false

    @Option(help: ArgumentHelp("How the text reaches a raw receipt printer, for a .png: raster, native or auto "
        + "(the role's default, kiosk.toml's delivery).", valueName: "delivery"))
    var delivery: RawDelivery?

    @OptionGroup var templates: TemplateFolderOptions
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard OutputFormat(path: out) != nil else {
            throw ValidationError("--out \(out): the extension must be .png, .pdf, .pwg or .urf.")
        }
        if role != nil, width != nil {
            throw ValidationError("Give either --role (the printer's page) or --width (a preview page), not both.")
        }
        guard (72...1200).contains(dpi) else { throw ValidationError("--dpi \(dpi): give a resolution from 72 to 1200.") }
        if delivery != nil, OutputFormat(path: out) != .png {
            throw ValidationError("--delivery shapes a .png preview only: raster and PDF files are always drawn whole.")
        }
    }

    func run() async throws {
        let source = try CLIError.wrap { try templates.catalog.find(nameOrFile: template) }
        let job = try loadJob(source)
        let (media, printer) = try await chooseMedia(for: job.document.page)
        let format = OutputFormat(path: out)!

        let lengths: [Length]
        let warnings: [RenderProblem]
        var size = ""
        do {
            switch format {
            case .pdf:
                let pdf = try job.renderPDF(on: media)
                try pdf.data.write(to: URL(fileURLWithPath: out))
                (lengths, warnings) = (pdf.pageLengths, pdf.problems)
            case .pwg, .urf:
                // Drawn and encoded piece by piece, as the spooler sends it.
                let rendered = try job.renderRaster(on: media, format: format == .pwg ? .pwg : .urf,
                                                    pixelFormat: format == .pwg && gray ? .sgray8 : .black1, toFile: out)
                (lengths, warnings) = (rendered.cutLengths, rendered.problems)
                size = ", \(rendered.widthDots) dots across"
            case .png:
                let rendered = try job.render(on: media, deviceText: try previewText(for: printer?.saved, media: media))
                try rendered.writePNGPreview(toFile: out)
                (lengths, warnings) = (rendered.cutLengths, rendered.problems)
                if let first = rendered.pages.first { size = ", \(first.width) dots across" }
            }
        } catch let error as TemplateJobError {
            throw CLIError("\(error)\n\(source.name) was not drawn; fix the problems above and run again.")
        }
        for warning in warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }

        print(RenderReport.lines(template: source.name, out: out, format: format, media: media, printer: printer?.name,
                                 width: size, lengths: lengths))
    }

    private func loadJob(_ source: TemplateSource) throws -> TemplateJob {
        if let data {
            guard let json = FileManager.default.contents(atPath: data) else {
                throw CLIError("The data file \(data) cannot be read. Check the path and its permissions.")
            }
            return try CLIError.wrap { try TemplateJob(source: source, dataJSON: json, dataFile: data) }
        }
        let sample = source.sampleData ?? "{}"
        if source.sampleData == nil {
            FileHandle.standardError.write(Data("note: \(source.name) has no sample data and no --data was given; drawing it with none.\n".utf8))
        }
        return try CLIError.wrap {
            try TemplateJob(source: source, dataJSON: Data(sample.utf8), dataFile: "\(source.name) sample data")
        }
    }

    /// What a PNG preview leaves to the printer's font: what the role's
    /// printer prints as text under `--delivery` (default `auto`), or, for
    /// a preview page with `--delivery native`, what an Epson TM does.
    private func previewText(for printer: SavedPrinter?, media: PageGeometry) throws -> DeviceTextDrawing {
        guard let printer, let role else {
            guard delivery == .native else { return .none }
            guard let options = try ModelCatalog.profile(model: "TM-T20III").commandLanguage.deviceTextOptions,
                  [180, 203].contains(media.resolution.horizontal) else {
                throw CLIError("--delivery native previews an ESC/POS printer's Font A, which is known at 180 and 203 dpi only; "
                    + "give --dpi 203, or --role for a saved printer.")
            }
            return .painted(options)
        }
        let preparer = DocumentPreparer(catalog: templates.catalog, rawDelivery: [role: delivery ?? .defaultDelivery])
        return preparer.deviceText(role: role, printer: printer).forPreview
    }

    /// The role's printer's media, or the preview page; and the printer, with its name quoted.
    private func chooseMedia(for page: PageRequest) async throws -> (PageGeometry, (saved: SavedPrinter, name: String)?) {
        guard let role else { return (MediaSelection.preview(for: page, width: width, dpi: dpi), nil) }
        let store = try database.open()
        guard let primary = try await store.assignments(for: role).first(where: \.isPrimary) else {
            throw CLIError("No printer holds the role \"\(role)\". Pick one with `kioskprint printers pick --role \(role)`, "
                + "or draw a preview with --width 80mm.")
        }
        let media = try CLIError.wrap { try MediaSelection.media(for: page, on: primary.printer.capabilities) }
        return (media, (primary.printer, "\"\(primary.printer.name)\""))
    }
}

/// The file formats `render` writes, by extension.
enum OutputFormat {
    case png, pdf, pwg, urf

    init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": self = .png
        case "pdf": self = .pdf
        case "pwg", "ras": self = .pwg
        case "urf": self = .urf
        default: return nil
        }
    }

    var name: String {
        switch self {
        case .png: "PNG preview"
        case .pdf: "PDF"
        case .pwg: "PWG raster"
        case .urf: "Apple raster"
        }
    }
}

/// What `render` (and the demo) print about a drawn template: where it went,
/// on what paper, and where the paper is cut, to the hundredth of a millimetre.
enum RenderReport {
    static func lines(template: String, out: String, format: OutputFormat, media: PageGeometry, printer: String?,
                      width: String, lengths: [Length]) -> String {
        let paper = media.isRoll ? "\(media.mediaWidth) roll" : "\(media.mediaWidth) x \(media.longestPage) sheet"
        let exact = { (length: Length) in String(format: "%.2f mm", Double(length.hundredthsOfMillimetre) / 100) }
        let cut = media.isRoll ? "cut at" : "page"
        let lengthLine = lengths.count == 1
            ? "\(cut) \(exact(lengths[0])) (media-col y-dimension \(lengths[0].hundredthsOfMillimetre))"
            : "\(lengths.count) pieces, \(cut) " + lengths.map(exact).joined(separator: ", ")
        return "\(template) -> \(out) (\(format.name)) for \(printer.map { "\($0), " } ?? "")"
            + "\(paper), \(media.resolution)\(width)\n" + lengthLine
    }
}
