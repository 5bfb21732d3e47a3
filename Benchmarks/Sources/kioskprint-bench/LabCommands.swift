// The commands that start a PrinterLab: each needs root, and enters its lab
// (root checked, private loopback, SIGPIPE ignored) through LabOptions.
import ArgumentParser
import BenchSupport
import Foundation

/// `kioskprint-bench` or `kioskprint-bench discovery`: finding and contacting printers.
struct DiscoveryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discovery",
        abstract: "Discovery and contact latency against a private PrinterLab (the default command).",
        discussion: """
            Measures how long KioskPrint takes to find a printer that has just been switched on (5 rounds \
            of 3 printers), a cold discover, and one contact (Get-Printer-Attributes mapped to \
            capabilities, over ipp:// and ipps://), each beside avahi-browse, ippfind or ipptool doing the \
            same. Needs root: the lab runs a private avahi-daemon.
            """)

    @OptionGroup var lab: LabOptions

    func run() async throws {
        try lab.enterLab("kioskprint-bench discovery", needsRootFor: "its lab runs a private avahi-daemon "
            + "(`kioskprint-bench render` needs no root)")
        await DiscoveryBench.run()
    }
}

/// `kioskprint-bench print`: a receipt end to end, beside lp through cupsd.
struct PrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "A receipt from accepted to completed at the printer, beside lp through a private cupsd.",
        discussion: """
            Through KioskPrint's spooler in this process: \(PrintBench.receipts) receipts one at a time, \
            then \(PrintBench.lanes) printers x \(PrintBench.jobsPerLane) receipts at once; beside them the \
            same receipt as a PDF printed with lp through a private cupsd with a driverless queue. All print \
            to instant recording ippeveprinters on loopback. The last section is `raw`'s, with its default \
            receipts. Needs root: a private avahi-daemon and a private cupsd.
            """)

    @OptionGroup var kioskprint: KioskprintOption
    @OptionGroup var lab: LabOptions

    func run() async throws {
        try lab.enterLab("kioskprint-bench print", needsRootFor: "it runs a private avahi-daemon and a private cupsd")
        await PrintBench.run(kioskprint: try kioskprint.binary())
    }
}

/// `kioskprint-bench cpu`: the agent's CPU per receipt and its idle memory, beside cupsd.
struct CPUCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cpu",
        abstract: "The agent's CPU per 30-item receipt through a watched folder, beside cupsd with its filters.",
        discussion: """
            Starts the release agent on the agent bench's site and drops \(CPUBench.receipts) receipts into its \
            receipts folder one at a time, then \(CPUBench.receipts) at once, reading the agent's CPU time before \
            and after each batch; beside it, \(CPUBench.lpJobs) lp jobs of the same receipt through a private \
            cupsd (its CPU with its filters' and backend's). Also the agent's resident memory at READY + 5 s and \
            once idle again after the receipts. Needs root: a PrinterLab and a private cupsd.
            """)

    @OptionGroup var kioskprint: KioskprintOption
    @OptionGroup var lab: LabOptions

    func run() async throws {
        try lab.enterLab("kioskprint-bench cpu", needsRootFor: "its printers come from a PrinterLab and it runs a private cupsd")
        await CPUBench.run(kioskprint: try kioskprint.binary())
    }
}

/// `kioskprint-bench raw [--receipts N]`: raw TCP ESC/POS beside IPP.
struct RawCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw",
        abstract: "A 30-item receipt to a raw-TCP ESC/POS printer beside the 80 mm IPP printer.",
        discussion: """
            The same receipt through the spooler to an ESC/POS simulator and to a recording ippeveprinter, \
            N times each, alternating: queued to completed, the bytes each path sends, and the CPU time \
            per receipt. Needs root: the IPP printer is announced by a private avahi-daemon.
            """)

    @Option(help: ArgumentHelp("Receipts on each path.", valueName: "n"))
    var receipts = RawBench.defaultReceipts
    @OptionGroup var lab: LabOptions

    func validate() throws {
        guard receipts > 0 else {
            throw ValidationError("--receipts takes a whole number above 0, e.g. --receipts \(RawBench.defaultReceipts).")
        }
    }

    func run() async throws {
        try lab.enterLab("kioskprint-bench raw", needsRootFor: "its IPP printer runs behind a private avahi-daemon")
        await RawBench.run(receipts: receipts)
    }
}

/// `kioskprint-bench serial [--receipts N]`: a receipt on a serial line in each raw language.
struct SerialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serial",
        abstract: "A 30-item receipt to a printer on a serial line, in ESC/POS and in Star's three languages.",
        discussion: """
            The same receipt through the spooler to a simulated printer on a pseudo-terminal read at the line's \
            rate, for ESC/POS raster, Star Graphic, Star Line and StarPRNT, at 115200 baud (N receipts each) and \
            19200 baud (one each): queued to completed and the bytes on the wire. Needs neither root nor a lab.
            """)

    @Option(help: ArgumentHelp("Receipts for each printer at 115200 baud.", valueName: "n"))
    var receipts = SerialBench.defaultReceipts

    func validate() throws {
        guard receipts > 0 else { throw ValidationError("--receipts takes a whole number above 0, e.g. --receipts 3.") }
    }

    func run() async throws { await SerialBench.run(receipts: receipts) }
}

/// `kioskprint-bench agent`: `kioskprint run` as a service.
struct AgentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "The agent (`kioskprint run`) as a child: start to READY=1, idle footprint, and a soak.",
        discussion: """
            Starts the agent \(AgentBench.starts) times to READY=1 on $NOTIFY_SOCKET (beside a private \
            cupsd's start), reads what it holds when idle, then feeds it N jobs through its two watched \
            folders and its GPIO button, checking that its memory and descriptors stay flat. The printers \
            are recording ippeveprinters; the button is the GPIO stand-in. Needs root: the printers come \
            from a PrinterLab with a private avahi-daemon (the agent itself needs no Avahi).
            """)

    /// `--only`'s kinds: one kind of job alone.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case receipt, label, ticket
    }

    @Option(help: ArgumentHelp("Jobs in the soak (at least \(AgentBench.minimumJobs)).", valueName: "n"))
    var jobs = AgentBench.defaultJobs
    @Option(help: ArgumentHelp("Feed the soak this kind of job alone, to tell which path a growth comes from.",
                               valueName: "kind"))
    var only: Kind?
    @Option(help: ArgumentHelp("Another kioskprint build, whose idle footprint is measured beside this one's.",
                               valueName: "path"), completion: .file())
    var compareWith: String?
    @OptionGroup var kioskprint: KioskprintOption
    @OptionGroup var lab: LabOptions

    func validate() throws {
        guard jobs >= AgentBench.minimumJobs else {
            throw ValidationError("--jobs takes a whole number of jobs, at least \(AgentBench.minimumJobs).")
        }
        if let compareWith, !FileManager.default.isExecutableFile(atPath: compareWith) {
            throw ValidationError("--compare-with \(compareWith): no executable file there; give the path of another kioskprint build.")
        }
    }

    func run() async throws {
        try lab.enterLab("kioskprint-bench agent", needsRootFor: "its printers come from a PrinterLab, which runs a private avahi-daemon")
        let options = AgentBench.Options(jobs: jobs, feed: only.flatMap { AgentSoak.Feed(rawValue: $0.rawValue) } ?? .mixed,
                                         compareWith: compareWith, kioskprint: try kioskprint.binary())
        await AgentBench.run(options)
    }
}

/// `kioskprint-bench moved [--rounds N]`: a saved printer found again at a new address.
struct MovedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moved",
        abstract: "A saved printer found again at a new address by its DNS-SD UUID: queued to completed there.",
        discussion: """
            Each round saves the receipt printer at an address where nothing listens, announces it under \
            its saved UUID at its real port, and times a 30-item receipt from queued to completed there; \
            beside it, the same receipt to the printer saved at its right address (what the move costs). \
            Needs root: the printer is announced through a private avahi-daemon.
            """)

    @Option(help: ArgumentHelp("Rounds, each a move and a receipt in place.", valueName: "n"))
    var rounds = MovedBench.defaultRounds
    @OptionGroup var lab: LabOptions

    func validate() throws {
        guard rounds > 0 else {
            throw ValidationError("--rounds takes a whole number above 0, e.g. --rounds \(MovedBench.defaultRounds).")
        }
    }

    func run() async throws {
        try lab.enterLab("kioskprint-bench moved", needsRootFor: "its printer is announced through a private avahi-daemon")
        await MovedBench.run(rounds: rounds)
    }
}

/// `kioskprint-bench api [--jobs N]`: the agent's HTTP API.
struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "The HTTP API: POST /v1/jobs acceptance beside ipptool to cupsd, event streams, its memory.",
        discussion: """
            Against the agent (`kioskprint run`): N receipts as template data and N as PDF, posted one \
            after another on one kept-alive connection, then on 4 at once, beside ipptool sending the same \
            PDF as Print-Job to a private cupsd; events fanned out to \(APIBench.streamClients) Server-Sent \
            Events clients; and the idle agent's memory with the API on and off. Needs root (the lab).
            """)

    @Option(help: ArgumentHelp("Jobs of each kind (at least 10).", valueName: "n"))
    var jobs = APIBench.defaultJobs
    @OptionGroup var kioskprint: KioskprintOption
    @OptionGroup var lab: LabOptions

    func validate() throws {
        guard jobs >= 10 else { throw ValidationError("--jobs takes a whole number of jobs, at least 10.") }
    }

    func run() async throws {
        try lab.enterLab("kioskprint-bench api", needsRootFor: "its printers come from a PrinterLab, which runs a private avahi-daemon")
        await APIBench.run(jobs: jobs, kioskprint: try kioskprint.binary())
    }
}

/// `kioskprint-bench ipp`: the role printers.
struct IPPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ipp",
        abstract: "The role printers: Print-Job through a role beside ippeveprinter and LPrint, Get-Printer-Attributes, memory.",
        discussion: """
            Against the agent (`kioskprint run`) with the receipt and label roles served as IPP printers: N \
            one-page receipts (PWG raster, as CUPS sends them) with Print-Job through the receipt role printer \
            beside Print-Job straight to its ippeveprinter, N labels through the label role beside LPrint \
            1.1.0, Get-Printer-Attributes to both, and the idle agent's memory with the role printers on and \
            off. Needs root (the lab).
            """)

    @Option(help: ArgumentHelp("Jobs of each kind (at least 10).", valueName: "n"))
    var jobs = RolePrinterBench.defaultJobs
    @OptionGroup var kioskprint: KioskprintOption
    @OptionGroup var lab: LabOptions

    func validate() throws {
        guard jobs >= 10 else { throw ValidationError("--jobs takes a whole number of jobs, at least 10.") }
    }

    func run() async throws {
        try lab.enterLab("kioskprint-bench ipp", needsRootFor: "its printers come from a PrinterLab, which runs a private avahi-daemon")
        await RolePrinterBench.run(jobs: jobs, kioskprint: try kioskprint.binary())
    }
}

/// `kioskprint-bench raw-listen`: the raw role printer beside the printer's own port.
struct RawListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw-listen",
        abstract: "The raw role printer: an ESC/POS receipt through the agent's port beside straight to the printer; memory.",
        discussion: """
            Against the agent (`kioskprint run`) with a till role served raw: N ESC/POS receipts through the \
            agent's raw listener beside N straight to the printer it forwards to (the ESC/POS simulator), \
            alternating, from connect to the last byte at the printer; and the idle agent's memory with the \
            listener on and off. Needs root (the lab).
            """)

    @Option(help: ArgumentHelp("Jobs of each kind (at least 10).", valueName: "n"))
    var jobs = RawListenBench.defaultJobs
    @OptionGroup var kioskprint: KioskprintOption
    @OptionGroup var lab: LabOptions

    func validate() throws {
        guard jobs >= 10 else { throw ValidationError("--jobs takes a whole number of jobs, at least 10.") }
    }

    func run() async throws {
        try lab.enterLab("kioskprint-bench raw-listen", needsRootFor: "its printers come from a PrinterLab, which runs a private avahi-daemon")
        await RawListenBench.run(jobs: jobs, kioskprint: try kioskprint.binary())
    }
}

/// `kioskprint-bench hostile`: hostile files through the agent's folders.
struct HostileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile",
        abstract: "Hostile files dropped into the agent's folders, a good receipt after each.",
        discussion: """
            Issue 14's hostile inputs (a 20,000-item receipt, JSON nested 100,000 deep, malformed JSON, an \
            oversized PNG, odd file names, ...) given \
            one after another to the agent (`kioskprint run`) through its watched folders, each followed by \
            a good receipt that must print: what became of each file, and the agent's peak memory beside a \
            calm run of the good receipts alone (a fresh agent each). Target: peak under 150 MB. Exits 1 \
            when a good receipt did not print or a file got no verdict. Needs root (the lab).
            """)

    @OptionGroup var kioskprint: KioskprintOption
    @OptionGroup var lab: LabOptions

    func run() async throws {
        try lab.enterLab("kioskprint-bench hostile", needsRootFor: "its printers come from a PrinterLab, which runs a private avahi-daemon")
        await HostileBench.run(kioskprint: try kioskprint.binary())
    }
}
