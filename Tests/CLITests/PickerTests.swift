import Foundation
import Testing
import PrintModel
import Simulator
import Store

/// The interactive picker, driven through a real terminal as a new user would.
@Suite(.serialized) struct PickerTests {
    @Test func choosingTheReceiptPrinterSavesItUnderTheRole() async throws {
        let lab = try await PrinterLab.shared()
        let receipt = try #require(lab.printer(.receipt80mm)).name
        let label = try #require(lab.printer(.label4x6)).name
        let office = try #require(lab.printer(.documentA4)).name
        let (terminal, database) = try Self.startPicker(role: "receipt", in: lab)

        // The list is filtered to the role's kinds: the receipt printer shows, the label printer never does.
        let screen = try await terminal.waitFor("the complete receipt list") {
            $0.contains("listening for more") && $0.contains(receipt)
        }
        #expect(!screen.contains(label))
        #expect(!screen.contains(office))
        let number = try #require(Self.number(of: receipt, on: screen))

        try terminal.type(String(number), enter: true)
        let details = try await terminal.waitFor(text: "Save \(receipt) as the primary printer for the role 'receipt'? [y/N]")
        #expect(details.contains("80 mm wide, 72 mm printable, cut from 25 mm to 3000 mm"))
        #expect(details.contains("203 dpi"))
        // Discovery prefers ipps: the certificate shown is the one pinned on save.
        let certificate = try #require(lab.printer(.receipt80mm)).certificateFingerprint()
        #expect(details.contains("TLS certificate: SHA-256 \(certificate.hex) (pinned on save)"))
        try terminal.type("y")
        _ = try await terminal.waitFor(text: "EXIT:0")

        let saved = try await KioskStore(path: database).assignments()
        #expect(saved.map(\.role.name) == ["receipt"])
        #expect(saved.first?.printer.name == receipt)
        #expect(saved.first?.printer.capabilities.rolls.first?.width == .millimetres(80))
        #expect(saved.first?.printer.certificatePin == certificate)
    }

    @Test func cancellingLeavesTheStoreUntouched() async throws {
        let lab = try await PrinterLab.shared()
        let label = try #require(lab.printer(.label4x6)).name
        let (terminal, database) = try Self.startPicker(role: "label", in: lab)
        let screen = try await terminal.waitFor(text: label)
        let number = try #require(Self.number(of: label, on: screen))
        try terminal.type(String(number), enter: true)
        _ = try await terminal.waitFor(text: "[y/N]")
        try terminal.type("n")
        let end = try await terminal.waitFor(text: "EXIT:1")
        #expect(end.contains("Cancelled: nothing was saved."))
        #expect(try await KioskStore(path: database).assignments().isEmpty)

        // q at the list cancels too, and the terminal is usable afterwards.
        try terminal.type("clear; " + Self.pickCommand(role: "label"), enter: true)
        _ = try await terminal.waitFor(text: label)
        try terminal.type("q")
        _ = try await terminal.waitFor(text: "EXIT:1")
        try terminal.type("echo typed-after-picker", enter: true)
        _ = try await terminal.waitFor(text: "\ntyped-after-picker")
    }

    @Test func aNumberNoPrinterHasIsRefusedAndTheListStays() async throws {
        let lab = try await PrinterLab.shared()
        let receipt = try #require(lab.printer(.receipt80mm)).name
        let (terminal, _) = try Self.startPicker(role: "receipt", in: lab)
        _ = try await terminal.waitFor(text: receipt)
        try terminal.type("999", enter: true)
        let screen = try await terminal.waitFor(text: "No printer has the number 999.")
        // The list stays. Not asserted by the receipt printer's name: other tests'
        // printers come and go in the shared lab, and the list, cut to the
        // terminal's height, may have scrolled it off by now.
        #expect(screen.contains("Printers for the role 'receipt'") && screen.contains("MAKE AND MODEL"), "\(screen)")
        try terminal.type("q")
        _ = try await terminal.waitFor(text: "EXIT:1")
    }

    /// The shell line that runs the picker for `role`, then prints `EXIT:` and its exit status.
    static func pickCommand(role: String) -> String {
        "\(CommandRunner.executable.path) printers pick --role \(role); echo EXIT:$?"
    }

    /// A terminal on the lab's Avahi, already running the picker for `role`,
    /// and the database file the picker saves to.
    static func startPicker(role: String, in lab: PrinterLab) throws -> (terminal: TerminalSession, database: String) {
        let (runner, database) = CommandRunner.forLab(lab)
        let terminal = try TerminalSession(environment: runner.environment)
        try terminal.type(pickCommand(role: role), enter: true)
        return (terminal, database)
    }

    /// The picker's number for the printer called `name`, read off the screen.
    static func number(of name: String, on screen: String) -> Int? {
        for line in screen.split(separator: "\n") where line.contains(name) {
            if let first = line.split(separator: " ").first, let number = Int(first) { return number }
        }
        return nil
    }
}
