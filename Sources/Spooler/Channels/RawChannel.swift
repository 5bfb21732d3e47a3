import PrintModel
import PrinterLanguages
import RawPrinters

/// A printer driven in its own command language (ESC/POS, ZPL II) over a
/// raw socket, USB or serial link. It keeps no job list: a job ends within
/// `submit`, printed (confirmed as `RawSendOutcome` says) or of unknown
/// fate, and the marker search answers `.unsupported`, so the role's
/// unknown-fate rule decides what a broken send comes to.
struct RawChannel: PrinterChannel {
    let session: RawPrinterSession

    var name: String { session.name }
    var profile: RawProfile { session.profile }

    func readiness() async -> Readiness {
        let status: RawPrinterStatus?
        do { status = try await session.status() } catch {
            return .trouble(PrinterProblem(text: error.description, reasons: ["unreachable"]))
        }
        guard let status else { return .ready }  // a link that only writes cannot say more
        let attention = status.reasons.filter(\.needsAttention)
        if !attention.isEmpty {
            let words = attention.map(\.keyword).joined(separator: ", ")
            return Readiness(problem: PrinterProblem(text: "\(name) reports \(words).", reasons: attention.map(\.keyword)),
                             drawerOpen: status.drawerOpen)
        }
        return Readiness(warnings: status.reasons.filter(\.isWarning).map(\.keyword), drawerOpen: status.drawerOpen)
    }

    func submit(_ submission: ChannelSubmission) async -> SubmitOutcome {
        let document = submission.document
        let bytes: [UInt8]
        var processID: ProcessID?
        var notes: [String] = []
        if let pieces = document.rawPieces {
            let wanted: RawProfile.CutKind = submission.cutStyle == .full ? .full : .partial
            var kick: DrawerKick?
            if submission.opensDrawer {
                if let pin = profile.drawerPins.first { kick = DrawerKick(pin: pin) } else { notes.append("no-drawer-port") }
            }
            processID = profile.processIDResponse ? ProcessID(counter: Int.random(in: 0..<10_000)) : nil
            let job = RawJob(pieces: pieces, cut: profile.cutter.cut(preferring: wanted), drawerKick: kick,
                             copies: submission.copies, processID: processID, deviceText: document.rawText)
            do { bytes = try profile.commandLanguage.encode(job) } catch { return .refused(error.description) }
        } else {
            // Printer-language bytes from the job itself, passed through as they are, once per copy.
            bytes = Array(repeating: [UInt8](document.data), count: max(1, submission.copies)).flatMap { $0 }
        }
        switch await session.send(bytes, processID: processID) {
        case .printed(let confirmed):
            let pieces = document.rawPieces?.count ?? 1
            return .printed(notes: notes + confirmed, impressions: pieces * max(1, submission.copies))
        case .notSent(let why): return .retryable(why)
        case .broken(let why), .unconfirmed(let why): return .mayHaveBeenAccepted(why)
        }
    }

    func status(of ticket: PrinterTicket) async -> FollowOutcome {
        .forgotten("\(name) is a raw printer and keeps no job \(ticket)")
    }

    func find(marker: String) async -> SearchOutcome { .unsupported }

    func cancel(_ ticket: PrinterTicket) async -> String? { nil }

    func identify(actions: [String]) async -> IdentifyOutcome {
        do {
            guard try await session.identify() else {
                return .unsupported("\(name) (\(profile.makeAndModel)) has no beep in \(profile.language.facts.name), and KioskPrint "
                    + "does not feed paper to point it out. Give the role a status light ([[light]]) to see which printer it is.")
            }
            return .done("\(name) was sent its beep (a printer without a buzzer skips it).")
        } catch {
            return .failed(error.description)
        }
    }

    func openDrawer() async -> DrawerOutcome {
        guard let pin = profile.drawerPins.first else {
            return .unsupported("\(name) (\(profile.makeAndModel)) has no cash-drawer port. Wire the drawer to the "
                + "receipt printer's DK port and save that printer for this role.")
        }
        do { return .pulsed(open: try await session.kickDrawer(DrawerKick(pin: pin))) } catch {
            return .failed(error.description)
        }
    }
}
