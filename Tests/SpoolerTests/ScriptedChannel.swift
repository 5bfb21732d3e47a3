import Foundation
import PrintModel
import Spooler
import Synchronization

/// A printer that plays back scripted answers through the real `PrinterChannel`
/// seam, so the real runner, store and machine are driven without a printer
/// (and without root). Each call takes the next scripted answer of its kind;
/// when a script runs out, the last answer repeats. Every call is recorded.
final class ScriptedChannel: PrinterChannel {
    struct Script: Sendable {
        var readiness: [Readiness] = [.ready]
        var submits: [SubmitOutcome] = [.accepted(PrinterTicket(1))]
        var statuses: [FollowOutcome] = [.ended(.completed, reasons: [], impressions: 1, message: nil)]
        var searches: [SearchOutcome] = [.absent]
        var cancels: [String?] = [nil]
        var drawers: [DrawerOutcome] = [.pulsed(open: true)]
    }

    private let state: Mutex<(script: Script, calls: [String], submissions: [String], cutLengths: [Length], validated: [Bool])>

    init(_ script: Script) { state = Mutex((script, [], [], [], [])) }

    /// The calls made, in order: `readiness`, `submit`, `status 1`, `find kp-...`, `cancel 1`.
    var calls: [String] { state.withLock { $0.calls } }
    /// The job names submitted, in order.
    var submissions: [String] { state.withLock { $0.submissions } }
    /// The first cut length of each submitted document, in order.
    var cutLengths: [Length] { state.withLock { $0.cutLengths } }
    /// Whether each submission asked to be checked first (Validate-Job), in order.
    var validated: [Bool] { state.withLock { $0.validated } }

    private func take<T: Sendable>(_ call: String, _ path: any WritableKeyPath<Script, [T]> & Sendable) -> T {
        state.withLock { state in
            state.calls.append(call)
            let answers = state.script[keyPath: path]
            if answers.count > 1 { state.script[keyPath: path].removeFirst() }
            return answers[0]
        }
    }

    func readiness() async -> Readiness { take("readiness", \.readiness) }
    func submit(_ submission: ChannelSubmission) async -> SubmitOutcome {
        state.withLock {
            $0.submissions.append(submission.jobName)
            $0.cutLengths.append(submission.document.cutLengths.first ?? .zero)
            $0.validated.append(submission.validate)
        }
        return take("submit", \.submits)
    }
    func status(of ticket: PrinterTicket) async -> FollowOutcome { take("status \(ticket)", \.statuses) }
    func find(marker: String) async -> SearchOutcome { take("find \(marker)", \.searches) }
    func cancel(_ ticket: PrinterTicket) async -> String? { take("cancel \(ticket)", \.cancels) }
    func openDrawer() async -> DrawerOutcome { take("drawer", \.drawers) }
    func identify(actions: [String]) async -> IdentifyOutcome { .unsupported("a scripted printer shows nothing") }
}

/// Scripted printers by URI, for a spooler under test.
struct ScriptedPrinters: Sendable {
    let byURI: [String: ScriptedChannel]

    var channels: PrinterChannels {
        let byURI = byURI
        return PrinterChannels { target in
            guard let channel = byURI[target.uri] else { fatalError("no scripted printer at \(target.uri)") }
            return channel
        }
    }
}
