import Foundation
import PosMarkup
public import PrintModel
public import PrinterLanguages
public import Rendering
import RawPrinters
public import Templates

/// Draws a job's content for one printer: chooses the media (the roll, or
/// the best loaded sheet for a fixed-size template), the format the printer
/// takes, and the cut finishings. Re-run for a backup printer on failover:
/// its roll, margins and resolution may differ.
public struct DocumentPreparer: Sendable {
    public var catalog: TemplateCatalog
    /// Where template jobs drawn at intake wait for this process's spooler
    /// (`JobIntake` draws them when it has this preparer); nil draws every
    /// job when it is sent.
    public var drawnAhead: DrawnDocuments?
    /// How each role's documents reach a raw receipt printer
    /// (`[role.NAME] delivery`); a role not named gets `RawDelivery.defaultDelivery`.
    public var rawDelivery: [Role: RawDelivery] = [:]

    public init(catalog: TemplateCatalog, drawnAhead: DrawnDocuments? = nil, rawDelivery: [Role: RawDelivery] = [:]) {
        self.catalog = catalog
        self.drawnAhead = drawnAhead
        self.rawDelivery = rawDelivery
    }

    /// What `role`'s documents leave to `printer`'s own font: the lines it
    /// can print as text when the role's delivery sends text to it (see
    /// `RawDelivery`), nothing for raster, IPP printers and languages
    /// without a printer font.
    public func deviceText(role: Role?, printer: SavedPrinter) -> DeviceTextDrawing {
        guard let profile = printer.capabilities.rawProfile, let options = profile.commandLanguage.deviceTextOptions else {
            return .none
        }
        let delivery = role.flatMap { rawDelivery[$0] } ?? .defaultDelivery
        var baud: Int?
        if case .serial(_, let settings)? = try? RawPrinterURI(parsing: printer.uri) { baud = settings.baud }
        return delivery.sendsText(serialBaud: baud) ? .leftToPrinter(options) : .none
    }

    /// A template job with its data.
    /// With `banner` (`REPRINT`), a line is drawn above the content.
    /// With `deviceText`, a raw printer prints the lines its font can show as text.
    public func prepare(template name: String, dataJSON: String, jobName: String,
                        for capabilities: PrinterCapabilities, banner: String? = nil,
                        deviceText: DeviceTextDrawing = .none) throws(DeliveryError) -> PreparedDocument {
        let source: TemplateSource
        do { source = try catalog.find(name) } catch { throw .badContent("\(error)") }
        return try prepare(source: source, dataJSON: dataJSON, dataFile: "the data of \(jobName)", for: capabilities,
                           banner: banner, deviceText: deviceText)
    }

    /// A printer-ready file: PDF goes as it is to a printer that takes PDF,
    /// and is drawn by Ghostscript for one that does not; a PNG or JPEG is drawn like a
    /// one-image template: one pixel per dot (at most the printable width, so
    /// an image made for the head prints dot for dot), cut after it.
    /// A PDF sent as it is gets no `banner`; a drawn one does.
    /// A receipt sent as ePOS-Print XML or WebPRNT markup takes `deviceText` as a template does.
    public func prepare(file path: String, for capabilities: PrinterCapabilities,
                        banner: String? = nil, deviceText: DeviceTextDrawing = .none) throws(DeliveryError) -> PreparedDocument {
        switch try PrinterReadyFile.check(path: path) {
        case .pdf(let data):
            guard capabilities.documentFormats.contains(DocumentFormat.pdf.rawValue) else {
                // Drawn here at the printer's own resolution, each page cut at its own length.
                let name = (path as NSString).lastPathComponent
                let pages = try PDFPages.render(path: path, dpi: capabilities.resolutions.native?.horizontal ?? 203, name: name)
                return try prepare(source: Self.drawnPages(pages, name: name, for: capabilities), dataJSON: "{}", dataFile: name,
                                   for: capabilities, banner: banner)
            }
            let media: PageGeometry
            do { media = try PageGeometry(capabilities: capabilities) } catch { throw .badContent("\(error)") }
            return PreparedDocument(data: data, format: .pdf, media: media, cutLengths: [], finishings: [], warnings: [])
        case .image(let bytes, let name):
            let source = TemplateSource(
                name: name, origin: .builtIn,
                text: #"<template page="roll"><image src="\#(Self.escaped(name))" dither="floyd-steinberg"/></template>"#,
                file: name, assets: TemplateAssets(embedded: [name: bytes]))
            return try prepare(source: source, dataJSON: "{}", dataFile: name, for: capabilities, banner: banner)
        case .raster(let pages, let name):
            return try prepare(source: Self.drawnPages(pages, name: name, for: capabilities), dataJSON: "{}", dataFile: name,
                               for: capabilities, banner: banner)
        case .receipt(let commands, let name):
            return try prepare(source: ReceiptDrawing.source(commands, name: name), dataJSON: "{}", dataFile: name,
                               for: capabilities, banner: banner, deviceText: deviceText)
        }
    }

    /// Pages a client drew (PWG raster, URF) as a template for this printer:
    /// one image a page, each cut at its own length, scaled from the page's
    /// resolution to the printer's. A page as wide as the roll is first
    /// cropped to the printable width (the client left the margins the
    /// role printer announced blank), so a page drawn at the printer's
    /// resolution lands dot for dot.
    static func drawnPages(_ pages: [RasterDocument.Page], name: String, for capabilities: PrinterCapabilities) -> TemplateSource {
        var pixels: [String: GrayPixels] = [:]
        var body = ""
        for (index, page) in pages.enumerated() {
            var image = page.image
            let dpi = max(1, page.resolution.horizontal)
            if let roll = capabilities.rolls.first, abs(image.width - roll.width.dots(at: dpi)) <= max(2, dpi / 25) {
                image = image.cropped(x: roll.margins.left.dots(at: dpi), width: roll.printableWidth.dots(at: dpi))
            }
            let width = String(format: "%.2f", Double(image.width) * 25.4 / Double(dpi))
            // Drawn at another resolution (an A4 page at 600 dpi to a 203 dpi printer): scaled now, so that
            // the layout holds the printer's dots, not the client's.
            if let printerDPI = capabilities.resolutions.native?.horizontal, printerDPI < dpi {
                image = image.scaled(toWidth: max(1, image.width * printerDPI / dpi))
            }
            let file = "page-\(index + 1)"
            pixels[file] = GrayPixels(width: image.width, height: image.height, luminance: image.luminance)
            if index > 0 { body += "<cut/>" }
            body += #"<image src="\#(file)" width="\#(width)mm" dither="\#(page.isBilevel ? "threshold" : "floyd-steinberg")"/>"#
        }
        return TemplateSource(name: name, origin: .builtIn, text: #"<template page="roll">\#(body)</template>"#, file: name,
                              assets: TemplateAssets(pixels: pixels))
    }

    /// Printer-language bytes (ZPL, ESC/POS) from the job itself, passed
    /// through as they are, to a printer of that language only.
    public func prepare(languageFile path: String, language: PrinterLanguage,
                        for capabilities: PrinterCapabilities) throws(DeliveryError) -> PreparedDocument {
        let format = DocumentFormat.printerLanguage(language)
        guard capabilities.documentFormats.contains(format.rawValue) else {
            throw .wrongLanguage(printer: capabilities.name, language: language)
        }
        let data = try PrinterLanguageFile.read(path: path, language: language)
        let media: PageGeometry
        do { media = try PageGeometry(capabilities: capabilities) } catch { throw .badContent("\(error)") }
        return PreparedDocument(data: data, format: format, media: media, cutLengths: [], finishings: [], warnings: [])
    }

    func prepare(source: TemplateSource, dataJSON: String, dataFile: String, for capabilities: PrinterCapabilities,
                 banner: String? = nil, deviceText: DeviceTextDrawing = .none) throws(DeliveryError) -> PreparedDocument {
        var job: TemplateJob
        do {
            job = try TemplateJob(source: source, dataJSON: Data(dataJSON.utf8), dataFile: dataFile)
        } catch { throw .badContent(error.description) }
        job.banner = banner
        let media: PageGeometry
        do { media = try MediaSelection.media(for: job.document.page, on: capabilities) } catch {
            throw .noMedia(printer: capabilities.name, detail: error.description)
        }
        let format = try DocumentFormat.best(for: capabilities)
        guard format != .pdf else {
            let pdf: RenderedPDF
            do { pdf = try job.renderPDF(on: media) } catch { throw .badContent(error.description) }
            return document(pdf.data, format: .pdf, media: media, cutLengths: pdf.pageLengths,
                            warnings: pdf.problems.map(\.description), page: job.document.page,
                            opensDrawer: job.document.opensDrawer, for: capabilities)
        }
        var laidOut: LaidOutJob
        do { laidOut = try job.layOut(on: media) } catch { throw .badContent(error.description) }
        return try draw(&laidOut, format: format, for: capabilities, deviceText: deviceText)
    }

    /// A template job laid out at intake for the role's printer (see
    /// `TemplateCheck.layOut`), drawn for it now, so the spooler sends it
    /// without drawing it again; nil when it cannot be: a printer that takes
    /// PDF (the check laid it out for raster), or a drawing that failed (the
    /// spooler then draws it at send time and reports why).
    func drawAhead(_ laidOut: inout LaidOutJob, for capabilities: PrinterCapabilities,
                   deviceText: DeviceTextDrawing = .none) -> PreparedDocument? {
        guard let format = try? DocumentFormat.best(for: capabilities), format != .pdf else { return nil }
        return try? draw(&laidOut, format: format, for: capabilities, deviceText: deviceText)
    }

    /// Draws a laid-out job in a raster or printer-language format.
    private func draw(_ laidOut: inout LaidOutJob, format: DocumentFormat, for capabilities: PrinterCapabilities,
                      deviceText: DeviceTextDrawing) throws(DeliveryError) -> PreparedDocument {
        let media = laidOut.media, page = laidOut.page, opensDrawer = laidOut.opensDrawer
        let lengths = laidOut.cutLengths, warnings = laidOut.problems.map(\.description)
        var data = Data()
        var rawPieces: [MonoBitmap]?
        var rawText: [[DeviceTextLine]] = []
        do {
            switch format {
            case .printerLanguage:
                // Each piece kept at one bit per dot as it is drawn; the channel encodes
                // the pieces once, with the job's copies, cut and drawer.
                let drawn = try laidOut.renderEach(deviceText: deviceText) { page in
                    try Self.rawPiece(page, media: media, printer: capabilities.name)
                }
                rawPieces = drawn.map(\.bitmap)
                rawText = drawn.map(\.text)
            case .pwgRaster, .urf:
                // Drawn and encoded piece by piece: a long report costs its longest piece in memory.
                data = try laidOut.renderRaster(format: format == .pwgRaster ? .pwg : .urf).data
            case .pdf:
                throw DeliveryError.badContent("A PDF is drawn from the template itself, not from a raster layout.")
            }
        } catch let error as TemplateJobError {
            throw .badContent(error.description)
        } catch let error as DeliveryError {
            throw error
        } catch {
            throw .badContent("the pages could not be encoded: \(error)")
        }
        var document = document(data, format: format, media: media, cutLengths: lengths, warnings: warnings, page: page,
                                opensDrawer: opensDrawer, for: capabilities)
        document.rawPieces = rawPieces
        document.rawText = rawText.contains { !$0.isEmpty } ? rawText : []
        return document
    }

    /// The drawn pages with what goes with them: the cut finishings, and why
    /// they are on other paper than the template asks for, if they are.
    private func document(_ data: Data, format: DocumentFormat, media: PageGeometry, cutLengths: [Length],
                          warnings: [String], page: PageRequest, opensDrawer: Bool,
                          for capabilities: PrinterCapabilities) -> PreparedDocument {
        // Cut after every piece when the printer can; the raster headers say the same.
        let finishings: [Trim] = media.isRoll && capabilities.trims.contains(.afterPages) ? [.afterPages] : []
        let paperChange = MediaSelection.loadedInstead(of: page, on: capabilities).map { sheet in
            "\(capabilities.name) has \(sheet.name ?? sheet.dimensions) loaded, not a roll, so this roll job cannot be cut "
                + "at its length there: it would print across \(sheet.dimensions) labels or sheets."
        }
        return PreparedDocument(data: data, format: format, media: media, cutLengths: cutLengths,
                                finishings: finishings, warnings: warnings, cutStyle: page.cutStyle,
                                paperChange: paperChange, opensDrawer: opensDrawer)
    }

    /// A page as the head prints it: the printable columns only (a raw
    /// printer's raster starts at the head's first dot), at one bit per dot,
    /// and the lines left to the printer's font, moved to those columns.
    public static func rawPiece(_ page: RenderedPage, media: PageGeometry,
                                printer: String) throws(DeliveryError) -> (bitmap: MonoBitmap, text: [DeviceTextLine]) {
        let raster = page.rasterPage(format: .black1)
        let printable = media.printableDots(pageLength: page.length)
        guard let whole = MonoBitmap(width: raster.width, height: raster.height, rows: raster.pixels),
              let piece = whole.columns(printable.x ..< printable.x + printable.width) else {
            throw .badContent("The page drawn for \(printer) (\(raster.width) dots) does not hold its printable "
                + "width (\(printable.width) dots from dot \(printable.x)); check the printer's saved width and dpi.")
        }
        return (piece, page.deviceText.map { $0.shifted(dx: -printable.x) })
    }

    private static func escaped(_ text: String) -> String { MarkupEscaping.text(text) }
}
