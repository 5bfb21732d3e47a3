import CommandLineOutput
import Foundation
import IPP
import PrintModel
import Setup

/// The picker's conversation: the live list and the number being typed, then
/// the chosen printer's capabilities and the confirmation.
struct PickerSession {
    enum Outcome { case saved(RoleSetup.Added), cancelled }

    let terminal: RawTerminal
    let role: Role
    let kinds: Set<JobKind>
    let backup: Bool
    let setup: RoleSetup

    /// What the picker waits on: a change in the list or a key.
    private enum Input { case list(PrinterFinder.Snapshot), listFailed(any Error), key(Key) }

    func run() async throws -> Outcome {
        let finder = PrinterFinder(kinds: kinds, contactTimeout: .seconds(3))
        let (inputs, feed) = AsyncStream<Input>.makeStream()
        let browsing = Task {
            do {
                for try await snapshot in finder.snapshots() { feed.yield(.list(snapshot)) }
            } catch {
                feed.yield(.listFailed(error))
            }
        }
        let typing = Task {
            for await key in terminal.keys() { feed.yield(.key(key)) }
        }
        defer { browsing.cancel(); typing.cancel() }

        var drawnRows = 0  // rows the last redraw used, to move back over them
        var snapshot = PrinterFinder.Snapshot.empty
        var typed = ""
        var notice = ""
        var chosen: PrinterListing?
        // Every printer the list has shown, by number: a number read off the screen stays
        // good while its printer is asked again (a changed announcement takes it off the
        // filtered list until it answers), which a busy network does often.
        var shown: [Int: PrinterListing] = [:]
        redraw(&drawnRows, snapshot, typed: typed, notice: notice)

        loop: for await input in inputs {
            // A notice answers a key; it stays on screen through list updates until the next key.
            if case .key = input { notice = "" }
            switch input {
            case .list(let next):
                snapshot = next
                for listing in next.printers { shown[listing.number] = listing }
            case .listFailed(let error):
                throw error
            case .key(.digit(let digit)):
                if typed.count < 4 { typed += String(digit) }
            case .key(.backspace):
                if !typed.isEmpty { typed.removeLast() }
            case .key(.cancel):
                return .cancelled
            case .key(.enter):
                guard let number = Int(typed) else { notice = "Type the number of a printer first."; break }
                typed = ""
                guard let listing = snapshot.printers.first(where: { $0.number == number }) ?? shown[number] else {
                    notice = "No printer has the number \(number)."
                    break
                }
                if case .failed(let message) = listing.contact {
                    notice = "\(listing.name) cannot be used: \(message)"
                    break
                }
                chosen = listing
                break loop
            case .key:
                break
            }
            redraw(&drawnRows, snapshot, typed: typed, notice: notice)
        }
        browsing.cancel()
        guard let chosen else { return .cancelled }
        return try await confirm(chosen, inputs: inputs)
    }

    /// Contacts the chosen printer, shows what it said, and saves it on `y`.
    private func confirm(_ listing: PrinterListing, inputs: AsyncStream<Input>) async throws -> Outcome {
        terminal.write("\nContacting \(listing.name) at \(listing.uri)...\n")
        let contacted: ContactedPrinter
        do {
            contacted = try await PrinterContact.contactWithCertificate(uri: listing.uri, timeout: setup.contactTimeout,
                                                                        txt: listing.discovered.txt)
        } catch {
            throw CLIError("\(error) Nothing was saved.")
        }
        let capabilities = contacted.capabilities
        terminal.write(CapabilitiesView.render(capabilities, uri: listing.uri) + "\n")
        if let certificate = contacted.certificate {
            terminal.write("TLS certificate: SHA-256 \(certificate.hex) (pinned on save)\n")
        }
        terminal.write("\n")
        var force = false
        if !role.accepts(capabilities.kinds) {
            let refusal = SetupError.wrongKinds(printer: capabilities.name, kinds: capabilities.kinds,
                                                kindsSource: capabilities.kindsSource, role: role)
            terminal.write("Warning: \(refusal)\n")
            force = true
        }
        let place = backup ? "a backup" : "the primary"
        terminal.write("Save \(capabilities.name) as \(place) printer for the role '\(role)'? [y/N] ")
        for await input in inputs {
            guard case .key(let key) = input else { continue }
            switch key {
            case .yes:
                terminal.write("y\n")
                let added = try await setup.save(uri: listing.uri, capabilities: capabilities,
                                                 certificate: contacted.certificate, role: role,
                                                 as: backup ? .backup : .primary, force: force,
                                                 serviceName: listing.discovered.serviceName)
                return .saved(added)
            case .no, .cancel, .enter:
                terminal.write("n\n")
                return .cancelled
            default:
                continue
            }
        }
        return .cancelled
    }

    private func redraw(_ drawnRows: inout Int, _ snapshot: PrinterFinder.Snapshot, typed: String, notice: String) {
        var text = ""
        if drawnRows > 0 { text += "\u{1B}[\(drawnRows)A" }
        text += "\r\u{1B}[J"
        let filter = kinds.isEmpty ? "all kinds" : "kinds: \(kinds.listing)"
        let status = snapshot.complete ? "listening for more" : "searching..."
        var body = "Printers for the role '\(role)' (\(filter)) - \(snapshot.printers.count) shown, "
            + "\(snapshot.foundCount) found, \(status)\n\n"
        body += ListingTable.render(snapshot.printers, numbered: true) + "\n\n"
        if !notice.isEmpty { body += notice + "\n" }
        body += "Type a number and press Enter to choose; q to cancel: " + typed
        text += body
        // Rows, not lines: a line wider than the terminal wraps onto more rows.
        let width = max(terminal.columns, 20)
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        drawnRows = lines.dropLast().reduce(0) { $0 + max(1, ($1.count + width - 1) / width) }
            + (lines.last.map { $0.count / width } ?? 0)
        terminal.write(text)
    }
}
