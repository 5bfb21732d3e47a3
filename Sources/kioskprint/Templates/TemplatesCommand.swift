import ArgumentParser
import CommandLineOutput
import Foundation
import PrintModel
import Rendering
import Templates

/// `kioskprint templates ...`: the integrator's tools for templates.
struct TemplatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "List the templates and check them.",
        subcommands: [ListTemplatesCommand.self, CheckTemplateCommand.self])
}

/// `kioskprint templates list`.
struct ListTemplatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the built-in templates and those in the templates folders.",
        discussion: "A template in a templates folder with the name of a built-in replaces it. The markup is in docs/TEMPLATES.md.")

    @OptionGroup var templates: TemplateFolderOptions

    func run() async throws {
        var table = TextTable("NAME", "PAGE", "FROM", "WHAT")
        for source in templates.catalog.all() {
            let page = (try? source.parse()).map { Self.describe($0.page) } ?? "(has errors: run templates check)"
            table.add(source.name, page, source.origin.description, source.summary)
        }
        print(table.render())
    }

    static func describe(_ page: PageRequest) -> String {
        let size: String
        switch page.size {
        case .roll:
            switch page.cut {
            case .afterContent(let minimum?): size = "roll, cut after content (min \(minimum))"
            case .afterContent(nil), .sheet: size = "roll, cut after content"
            case .fixed(let length): size = "roll, cut at \(length)"
            }
        case .fixed(let width, let length):
            size = "\(width.millimetreFigure) x \(length.millimetreFigure) mm"
        }
        return page.orientation == .landscape ? size + ", landscape" : size
    }
}

/// `kioskprint templates check NAME|FILE...`.
struct CheckTemplateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check templates with data: markup, missing data, barcodes, images and fonts, each with its line and column.",
        discussion: """
        Each template is drawn with --data (or its sample data) on --width/--dpi (or a preview page of its own size). \
        Exits with status 1 when a template has an error; warnings alone do not fail.
        """)

    @Argument(help: "Template names or files (.xml).")
    var templates: [String]

    @Option(help: ArgumentHelp("Data to check with, a JSON object; default: each template's sample data.", valueName: "file.json"))
    var data: String?

    @Option(help: ArgumentHelp("Page width to check on, e.g. 58mm.", valueName: "length"))
    var width: Length?

    @Option(help: "Resolution to check at, in dots per inch.")
    var dpi: Int = 203

    @OptionGroup var folders: TemplateFolderOptions

    func run() async throws {
        var json: Data?
        if let data {
            guard let contents = FileManager.default.contents(atPath: data) else {
                throw CLIError("The data file \(data) cannot be read. Check the path and its permissions.")
            }
            json = contents
        }
        var failed = false
        for name in templates {
            let source: TemplateSource
            do { source = try folders.catalog.find(nameOrFile: name) } catch {
                print("\(name): \(error)")
                failed = true
                continue
            }
            let media = width.map { PageGeometry.preview(width: $0, dpi: dpi) }
                ?? (try? source.parse()).map { MediaSelection.preview(for: $0.page, width: nil, dpi: dpi) }
            let check = TemplateCheck.run(source, dataJSON: json, dataFile: data, media: media)
            for error in check.errors { print("error: \(error)") }
            for warning in check.warnings { print("warning: \(warning)") }
            if check.isClean {
                let cuts = check.cutLengths.map(\.description).joined(separator: ", ")
                let note = check.checkedData ? "" : " (no data to check the bindings with: give --data)"
                print("\(source.file): OK, \(check.cutLengths.count == 1 ? "1 piece" : "\(check.cutLengths.count) pieces") (\(cuts))\(note)")
            } else {
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
