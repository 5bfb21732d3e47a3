// kioskprint-bench: KioskPrint's figures, measured in this run, each beside
// the tool a person would otherwise use. One subcommand per bench; the
// commands that need a PrinterLab are in LabCommands.swift.
import ArgumentParser
import BenchSupport
import Foundation

/// The bench's root command: `kioskprint-bench [SUBCOMMAND]`, discovery when none is given.
@main
struct KioskprintBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kioskprint-bench",
        abstract: "Measure KioskPrint, each figure beside the tool a site would otherwise use.",
        discussion: """
            Every command prints one table on standard output (progress goes to standard error, on a \
            terminal only), with the machine it ran on. docs/BENCHMARKS.md has the figures of a recorded \
            run and how to read them.

            Most commands start a PrinterLab (simulated printers behind a private avahi-daemon, some with \
            a private cupsd) and need root; they run in a network namespace of their own unless \
            --shared-loopback. `render` and `retention` need neither root nor a lab.

            The commands that run the product's kioskprint binary (render, print, agent, cpu, api, hostile) take \
            --kioskprint PATH; by default they run the root package's .build/release/kioskprint, built \
            with `scripts/build-release.sh --product kioskprint`.
            """,
        subcommands: [
            DiscoveryCommand.self, RenderCommand.self, PrintCommand.self, RawCommand.self, SerialCommand.self, AgentCommand.self,
            MovedCommand.self, RetentionCommand.self, APICommand.self, IPPCommand.self, RawListenCommand.self, HostileCommand.self, CPUCommand.self,
            RenderOneCommand.self, RenderIdleCommand.self, RenderIntakeCommand.self, RenderGoldenCommand.self,
        ],
        defaultSubcommand: DiscoveryCommand.self)
}

/// `kioskprint-bench render`: template rendering, in process and as whole processes.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Template + JSON to printer raster: time and peak memory, beside Ghostscript.",
        discussion: """
            Section 1 draws the built-in templates (receipt, a 30-item receipt, shipping label, ...) at 203 \
            and 300 dpi to PWG raster, 50 runs after 3 warm-ups, each case in a child process of its own so \
            that its peak memory is its own; beside it, gs rasterising the same page from PDF, as CUPS' \
            gstoraster does. Section 2 times the whole `kioskprint render` process (start-up included) \
            beside the whole gs process.

            Needs no root and no lab. Section 2 runs the kioskprint binary (see --kioskprint); without \
            it, its row says why and section 1 still stands. gs and GNU time come from \
            scripts/install-deps.sh.
            """)

    @OptionGroup var kioskprint: KioskprintOption

    func run() async throws {
        // A path given by hand must be there; the default may be missing (section 2 then says so).
        let binary: Result<String, BenchError>
        if kioskprint.path != nil {
            binary = .success(try kioskprint.binary())
        } else {
            binary = Result { try kioskprint.binary() }.mapError { $0 as? BenchError ?? BenchError("\($0)") }
        }
        RenderBench.run(kioskprint: binary)
    }
}

/// `kioskprint-bench render-one NAME DPI RUNS`: a child of the render bench.
struct RenderOneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-one",
        abstract: "The render bench's child: draws one case RUNS times and prints its timings as JSON.",
        shouldDisplay: false)

    @Argument(help: "The render case, e.g. receipt or receipt-30.") var name: String
    @Argument(help: "Dots per inch.") var dpi: Int
    @Argument(help: "Timed runs, after the warm-ups.") var runs: Int

    func validate() throws {
        guard dpi > 0, runs > 0 else { throw ValidationError("DPI and RUNS must be whole numbers above 0.") }
    }

    func run() throws { RenderOne.run(name: name, dpi: dpi, runs: runs) }
}

/// `kioskprint-bench render-idle`: the render bench's baseline child.
struct RenderIdleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-idle",
        abstract: "The render bench's child that draws nothing: the process's own peak memory.",
        shouldDisplay: false)

    func run() throws { RenderOne.idle() }
}

/// `kioskprint-bench retention [--jobs N]`: the store over a long soak, with and without the purge.
struct RetentionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract: "Database and spool folder sizes over N jobs, with the agent's purge and without.",
        discussion: """
            N jobs go through the store as the spooler takes them (enqueue, claim, send, finish), every \
            tenth with an 8 KB PDF in the spool folder; one soak purges as the agent does (scaled down: \
            every 1,000 jobs, keeping the newest 5,000), the other keeps everything, as KioskPrint did \
            before retention. Sizes are read at 0, N/10, N/2 and N.

            Store level: no printers, no lab, no root. Files go to a temporary folder, removed at the end.
            """)

    @Option(help: ArgumentHelp("Jobs in each soak (at least \(RetentionBench.minimumJobs)).", valueName: "n"))
    var jobs = RetentionBench.defaultJobs

    func validate() throws {
        guard jobs >= RetentionBench.minimumJobs else {
            throw ValidationError("--jobs takes a whole number, at least \(RetentionBench.minimumJobs) (default \(RetentionBench.defaultJobs)).")
        }
    }

    func run() async throws { await RetentionBench.run(jobs: jobs) }
}
