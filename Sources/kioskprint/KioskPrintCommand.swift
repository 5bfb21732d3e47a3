import Agent
import ArgumentParser
import Rendering
import Memory

/// `kioskprint`: the command line of the KioskPrint agent.
@main
struct KioskPrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kioskprint",
        abstract: "Driverless printing for kiosks and registers: receipts, labels and boarding passes with no print dialog.",
        discussion: """
        Start with `kioskprint-demo` to see simulated printers found on loopback, \
        then pick real ones for your roles with `kioskprint printers pick --role receipt`.
        """,
        version: KioskPrintVersion.current,
        subcommands: [PrintersCommand.self, PrintCommand.self, JobsCommand.self, RunCommand.self, StatusCommand.self, ConfigCommand.self, RenderCommand.self,
                      TemplatesCommand.self, TokensCommand.self, GPIOCommand.self, DrawerCommand.self])

    /// Parses the arguments and runs the command, as ArgumentParser does,
    /// after tuning malloc before the first thread is made (see
    /// `MemoryTuning.limitMallocArenas`); a `print` of a template then starts
    /// fontconfig first, beside the parsing (a few milliseconds of the
    /// whole process's run).
    static func main() async {
        MemoryTuning.limitMallocArenas()
        if PrintCommand.laysOutText(CommandLine.arguments.dropFirst()) { FontWarmUp.begin() }
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
