import Agent
import ArgumentParser
import Service

/// `kioskprint`: the command line of the KioskPrint agent.
@main
struct KioskPrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kioskprint",
        abstract: "Driverless printing for kiosks and registers: receipts, labels and boarding passes with no print dialog.",
        discussion: """
        Start with `kioskprint demo` to see simulated printers found on loopback, \
        then pick real ones for your roles with `kioskprint printers pick --role receipt`.
        """,
        version: KioskPrintVersion.current,
        subcommands: [PrintersCommand.self, PrintCommand.self, JobsCommand.self, RunCommand.self, StatusCommand.self, ConfigCommand.self, RenderCommand.self,
                      TemplatesCommand.self, TokensCommand.self, DemoCommand.self, GPIOCommand.self, DrawerCommand.self])

    /// Tunes malloc before the first thread is made (see
    /// `MemoryTuning.tuneAllocator`), then parses and runs the command.
    static func main() async {
        MemoryTuning.tuneAllocator()
        await main(nil)
    }
}

/// `kioskprint printers ...`: the administrator's picker and the saved printers.
struct PrintersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "printers",
        abstract: "Find printers, save them under roles, and check on them.",
        subcommands: [DiscoverCommand.self, PickCommand.self, AddCommand.self, ListCommand.self,
                      RemoveCommand.self, CheckCommand.self, TrustCommand.self, TestPageCommand.self])
}
