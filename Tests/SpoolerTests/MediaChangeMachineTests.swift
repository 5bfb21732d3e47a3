import PrintModel
import Spooler
import Testing

/// The media-changes rule as a pure function: a printer that says it would
/// print a job on other paper (Validate-Job), or took it so (Print-Job with
/// substituted attributes), under `fail` and under `warn`.
@Suite struct MediaChangeMachineTests {
    static func context(_ rule: MediaChangeRule) throws -> DeliveryContext {
        let role = try Role("receipt")
        return DeliveryContext(jobID: JobID(7), role: role, failoverGrace: .seconds(60), followCeiling: .milliseconds(500),
                               unreachablePause: .seconds(3), unknownFate: .reprintMarked, mediaChanges: rule)
    }

    static func toSubmit(printers: Int) -> [DeliveryEvent] {
        [.read(cancelRequested: false, sentToPrinter: false, printers: printers),
         .ready(at: DeliveryMachineTests.start, warnings: []), .prepared(namedMedia: nil)]
    }

    static let completed = DeliveryEvent.followed(.ended(.completed, reasons: [], impressions: 1, message: nil),
                                                  cancelRequested: false)

    @Test func underFailAJobThePrinterWouldChangeFailsBeforeAnythingIsSent() throws {
        let (state, actions) = DeliveryMachineTests.run(DeliveryState(step: .choosing), Self.toSubmit(printers: 1) + [
            .submitted(.wouldChange(["media-col"], "Zebra would not print this job as drawn.")),
        ], in: try Self.context(.fail))
        #expect(state.ended?.state == .failed)
        let error = try #require(state.ended?.error)
        #expect(error.hasPrefix("Zebra would not print this job as drawn."))
        #expect(error.contains(#"media-changes = "warn" under [role.receipt]"#), "it says what to change")
        #expect(actions.contains(.report(.mediaChanged(["media-col"], .fail))))
        #expect(!actions.contains { if case .markSent = $0 { true } else { false } }, "nothing reached the printer")
    }

    @Test func underFailItGoesToTheNextPrinterFirst() throws {
        let (state, actions) = DeliveryMachineTests.run(DeliveryState(step: .choosing), Self.toSubmit(printers: 2) + [
            .submitted(.wouldChange(["media"], "no")),
        ], in: try Self.context(.fail))
        #expect(state.ended == nil && state.targetIndex == 1 && state.step == .choosing)
        #expect(actions.suffix(2) == [.report(.mediaChanged(["media"], .fail)), .report(.failover(fromIndex: 0, toIndex: 1))])

        let (printed, _) = DeliveryMachineTests.run(state, Self.toSubmit(printers: 2) + [
            .submitted(.accepted(PrinterTicket(5))), Self.completed,
        ], in: try Self.context(.fail))
        #expect(printed.ended?.state == .completed && printed.targetIndex == 1)
    }

    @Test func underWarnItIsSentOnceWithoutAskingAgainAndTheChangeIsRecorded() throws {
        let context = try Self.context(.warn)
        let (resend, actions) = DeliveryMachineTests.run(DeliveryState(step: .choosing), Self.toSubmit(printers: 1) + [
            .submitted(.wouldChange(["media-col"], "it would change media-col")),
        ], in: context)
        #expect(resend.step == .submitting && resend.acceptedChanges == ["media-col"])
        #expect(actions.last == .report(.mediaChanged(["media-col"], .warn)))

        let (done, more) = DeliveryMachineTests.run(resend, [.submitted(.accepted(PrinterTicket(8))), Self.completed], in: context)
        #expect(done.ended?.state == .completed)
        #expect(more.contains(.recordProgress(state: nil, reasons: ["printer-changed-media-col"], impressions: 1)))
    }

    @Test func underFailAJobTakenWithChangedPaperIsCanceledThereAndFails() throws {
        let context = try Self.context(.fail)
        let (cancelling, actions) = DeliveryMachineTests.run(DeliveryState(step: .choosing), Self.toSubmit(printers: 1) + [
            .submitted(.acceptedWithChanges(PrinterTicket(12), changed: ["media-col", "finishings"])),
        ], in: context)
        #expect(cancelling.step == .cancelling(PrinterTicket(12)))
        #expect(actions.suffix(2) == [.markSent(PrinterTicket(12)), .report(.mediaChanged(["media-col", "finishings"], .fail))])

        let (canceled, _) = DeliveryMachineTests.run(cancelling, [
            .cancelAsked(failure: nil),
            .followed(.ended(.canceled, reasons: ["job-canceled-by-user"], impressions: 0, message: nil), cancelRequested: false),
        ], in: context)
        #expect(canceled.ended?.state == .failed, "a canceled job with changed paper is a failure, not the operator's cancel")
        #expect(canceled.ended?.error?.contains("changed media-col, finishings") == true)
        #expect(canceled.ended?.error?.hasSuffix("It was canceled at the printer.") == true)

        // Too late to stop: it printed, on the wrong paper. Still not a success.
        let (printed, _) = DeliveryMachineTests.run(cancelling, [.cancelAsked(failure: nil), Self.completed], in: context)
        #expect(printed.ended?.state == .failed)
        #expect(printed.ended?.error?.hasSuffix("It printed before it could be stopped.") == true)
    }

    @Test func underWarnAJobTakenWithChangedPaperCompletesWithTheChangeInItsReasons() throws {
        let context = try Self.context(.warn)
        let (done, actions) = DeliveryMachineTests.run(DeliveryState(step: .choosing), Self.toSubmit(printers: 1) + [
            .submitted(.acceptedWithChanges(PrinterTicket(12), changed: ["media-col"])), Self.completed,
        ], in: context)
        #expect(done.ended?.state == .completed)
        #expect(actions.contains(.report(.mediaChanged(["media-col"], .warn))))
        #expect(actions.contains(.recordProgress(state: nil, reasons: ["printer-changed-media-col"], impressions: 1)))
    }

    @Test func aChangeThatLeavesThePaperAloneIsOnlyNoted() throws {
        let (done, actions) = DeliveryMachineTests.run(DeliveryState(step: .choosing), Self.toSubmit(printers: 1) + [
            .submitted(.acceptedWithChanges(PrinterTicket(3), changed: ["print-color-mode"])), Self.completed,
        ], in: try Self.context(.fail))
        #expect(done.ended?.state == .completed)
        #expect(!actions.contains { if case .report(.mediaChanged) = $0 { true } else { false } })
        #expect(actions.contains(.recordProgress(state: nil, reasons: ["printer-changed-print-color-mode"], impressions: 1)))
    }
}
