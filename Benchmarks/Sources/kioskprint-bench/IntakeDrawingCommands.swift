import ArgumentParser

/// `kioskprint-bench render-intake NAME RUNS [--only pwg|escpos]`: the
/// intake's drawing of one render case in a loop, to time it or run it under
/// perf (`perf record --call-graph dwarf -- kioskprint-bench render-intake receipt-30 2000`).
struct RenderIntakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-intake",
        abstract: "A folder job's check, layout and drawing (PWG and ESC/POS) RUNS times; prints the medians.",
        shouldDisplay: false)

    @Argument(help: "The render case, e.g. receipt or receipt-30.") var name: String
    @Argument(help: "Timed runs, after 3 warm-ups.") var runs: Int
    @Option(help: "Only this printer kind: pwg or escpos.") var only: String?

    func validate() throws {
        guard runs > 0 else { throw ValidationError("RUNS must be a whole number above 0.") }
    }

    func run() throws { try IntakeDrawing.loop(name: name, runs: runs, only: only) }
}

/// `kioskprint-bench render-golden DIR [TEMPLATE.xml ...]`: the bytes every
/// render case is drawn as, one file per case and format, to compare by hash
/// before and after a change to the drawing.
struct RenderGoldenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-golden",
        abstract: "Writes each render case's PWG, URF, ESC/POS and preview bytes into DIR.",
        shouldDisplay: false)

    @Argument(help: "The folder to write into.") var folder: String
    @Argument(help: "More template files, drawn with their sample data.") var templates: [String] = []

    func run() throws { try IntakeDrawing.writeGolden(to: folder, extraTemplates: templates) }
}
