public import Foundation
public import PrintModel
public import Templates

/// Everything that can be found wrong with a template before a job meets
/// it: the markup, the data it needs, the page on the media, and what cannot
/// be drawn (barcode data the symbology refuses, missing images, glyphs the
/// fonts lack). What `kioskprint templates check` prints.
public struct TemplateCheck: Sendable {
    /// Problems that stop the template from printing, each with file:line:col when it has one.
    public var errors: [String] = []
    /// Things printed differently from what was written.
    public var warnings: [String] = []
    /// The cut lengths of the pages drawn, when it could be drawn.
    public var cutLengths: [Length] = []
    /// True when the data binding was checked (there was data to check it with).
    public var checkedData = false

    public var isClean: Bool { errors.isEmpty }

    /// Checks `source` with `data` (JSON; nil: the template's sample data,
    /// if any) on `media` (nil: a preview page for the template).
    public static func run(_ source: TemplateSource, dataJSON: Data? = nil, dataFile: String? = nil,
                           media: PageGeometry? = nil) -> TemplateCheck {
        perform(source, dataJSON: dataJSON, dataFile: dataFile, media: media, keepingLayout: false).check
    }

    /// Checks `source` with `data` on a printer's `media` as `run` does, and
    /// keeps the layout when the check is clean, so the job can be drawn for
    /// that printer without laying it out again (draw it before the caller
    /// next suspends: see `LaidOutJob`).
    public static func layOut(_ source: TemplateSource, dataJSON: Data, dataFile: String,
                              media: PageGeometry) -> (check: TemplateCheck, laidOut: LaidOutJob?) {
        perform(source, dataJSON: dataJSON, dataFile: dataFile, media: media, keepingLayout: true)
    }

    /// `run` with the job's data already read (see `layOut(_:data:media:)`).
    public static func run(_ source: TemplateSource, data: TemplateData, media: PageGeometry?) -> TemplateCheck {
        perform(source, dataJSON: nil, dataFile: nil, media: media, keepingLayout: false, parsed: data).check
    }

    /// `layOut` with the job's data already read (by the same strict reader,
    /// as the intake reads a file's data before it checks it): the JSON is
    /// not read a second time.
    public static func layOut(_ source: TemplateSource, data: TemplateData,
                              media: PageGeometry) -> (check: TemplateCheck, laidOut: LaidOutJob?) {
        perform(source, dataJSON: nil, dataFile: nil, media: media, keepingLayout: true, parsed: data)
    }

    private static func perform(_ source: TemplateSource, dataJSON: Data?, dataFile: String?, media: PageGeometry?,
                                keepingLayout: Bool, parsed: TemplateData? = nil) -> (check: TemplateCheck, laidOut: LaidOutJob?) {
        var check = TemplateCheck()
        let document: LayoutDocument
        do { document = try source.parse() } catch {
            check.errors = error.diagnostics.map(\.description)
            return (check, nil)
        }
        let json = parsed == nil ? dataJSON ?? source.sampleData.map { Data($0.utf8) } : nil
        let data: TemplateData
        if let parsed {
            data = parsed
            check.checkedData = true
        } else if let json {
            do { data = try TemplateData(json: json, file: dataFile ?? "\(source.name) sample data") } catch {
                check.errors = error.diagnostics.map(\.description)
                return (check, nil)
            }
            check.checkedData = true
        } else {
            data = .object([:])
        }
        // Without data a missing value is expected, not an error: bind leniently.
        let (bound, diagnostics) = DataBinder.bindReporting(document, data: data)
        if check.checkedData { check.errors += diagnostics.map(\.description) }

        let page = media ?? MediaSelection.preview(for: document.page, width: nil, dpi: 203)
        do {
            // Laid out and cut, not drawn: the same problems, without a page of ink
            // per piece (a 20,000-line report is checked in its layout's memory).
            let composition = try DocumentRenderer(media: page, assets: source.assets).compose(bound)
            check.cutLengths = composition.pages.map(\.length)
            for problem in composition.problems {
                let line = "\(problem.location): \(problem.message)"
                if problem.isError { check.errors.append(line) } else { check.warnings.append(line) }
            }
            if keepingLayout && check.isClean { return (check, LaidOutJob(composition: composition, document: document, media: page)) }
        } catch {
            check.errors.append("\(source.file): \(error)")
        }
        return (check, nil)
    }
}
