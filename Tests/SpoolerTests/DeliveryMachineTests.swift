import PrintModel
import Spooler
import Testing

/// The delivery rules as a pure function: events in, state and actions out.
/// No printer, no database, no clock: each rule is one short script.
@Suite struct DeliveryMachineTests {
    static let start = ContinuousClock.now
    static func context(_ role: String = "receipt", rule: UnknownFateRule? = nil) throws -> DeliveryContext {
        let role = try Role(role)
        return DeliveryContext(jobID: JobID(7), role: role, failoverGrace: .seconds(60), followCeiling: .milliseconds(500),
                               unreachablePause: .seconds(3), unknownFate: rule ?? .defaultRule(for: role))
    }

    /// Feeds `events` from `state`, returning the last state and every action in order.
    static func run(_ state: DeliveryState, _ events: [DeliveryEvent],
                    in context: DeliveryContext) -> (DeliveryState, [DeliveryAction]) {
        var state = state
        var all: [DeliveryAction] = []
        for event in events {
            let (next, actions) = DeliveryMachine.next(state, on: event, in: context)
            state = next
            all += actions
        }
        return (state, all)
    }

    static let toSubmit: [DeliveryEvent] = [
        .read(cancelRequested: false, sentToPrinter: false, printers: 1), .ready(at: start, warnings: []), .prepared(namedMedia: "oe_roll"),
    ]

    @Test func aReadyPrinterTakesTheJobAndItIsFollowedToCompletion() throws {
        let (state, actions) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [
            .submitted(.accepted(PrinterTicket(41))),
            .followed(.progress(stopped: false, reasons: ["job-printing"], impressions: 0), cancelRequested: false),
            .followed(.progress(stopped: false, reasons: ["job-printing"], impressions: 0), cancelRequested: false),
            .followed(.ended(.completed, reasons: [], impressions: 1, message: nil), cancelRequested: false),
        ], in: try Self.context())
        #expect(state.ended?.state == .completed)
        #expect(actions == [
            .clearTrouble(warnings: []), .markSending, .report(.sending), .markSent(PrinterTicket(41)),
            // Printing on within the quick looks: the store says `sent` already, nothing is written yet.
            .pause(.milliseconds(10)), .pause(.milliseconds(10)),
            // The end writes the printer's last word with the finish (one commit, see JobRunner).
            .recordProgress(state: nil, reasons: [], impressions: 1), .finish(.completed, error: nil),
        ])
    }

    @Test func aJobStillPrintingAfterTheQuickLooksHasItsProgressWrittenOnce() throws {
        let still = DeliveryEvent.followed(.progress(stopped: false, reasons: ["job-printing"], impressions: 0), cancelRequested: false)
        let (_, actions) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [.submitted(.accepted(PrinterTicket(41)))]
            + Array(repeating: still, count: DeliveryMachine.quickLooks + 3), in: try Self.context())
        let written = actions.filter { if case .recordProgress = $0 { true } else { false } }
        #expect(written == [.recordProgress(state: .sent, reasons: ["job-printing"], impressions: 0)])
        // Written at the last quick look: after quickLooks - 1 pauses of the job's looks.
        let index = try #require(actions.firstIndex(of: written[0]))
        let pausesBefore = actions[..<index].filter { if case .pause = $0 { true } else { false } }.count
        #expect(pausesBefore == DeliveryMachine.quickLooks - 1, "\(actions)")
    }

    @Test func aStoppedPrinterIsWrittenAtTheFirstLook() throws {
        let (_, actions) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [
            .submitted(.accepted(PrinterTicket(41))),
            .followed(.progress(stopped: true, reasons: ["media-empty"], impressions: 0), cancelRequested: false),
            .followed(.progress(stopped: false, reasons: ["job-printing"], impressions: 0), cancelRequested: false),
        ], in: try Self.context())
        #expect(Array(actions.suffix(4)) == [
            .recordProgress(state: .waiting, reasons: ["media-empty"], impressions: 0), .pause(.milliseconds(10)),
            // Going on after a stop is news the operator waits for: written at once too.
            .recordProgress(state: .sent, reasons: ["job-printing"], impressions: 0), .pause(.milliseconds(10)),
        ])
    }

    @Test func aPrinterAnsweringAgainIsWrittenAtOnce() throws {
        let (_, actions) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [
            .submitted(.accepted(PrinterTicket(41))),
            .followed(.unreachable("No answer."), cancelRequested: false),
            .followed(.progress(stopped: false, reasons: ["job-printing"], impressions: 0), cancelRequested: false),
        ], in: try Self.context())
        // The store said waiting (unreachable): the job printing on replaces it at once.
        #expect(Array(actions.suffix(3)) == [
            .answeredAgain, .recordProgress(state: .sent, reasons: ["job-printing"], impressions: 0), .pause(.milliseconds(10)),
        ])
    }

    @Test func followingLooksEvery10msAtFirstThenBacksOffToTheCeiling() throws {
        let still = DeliveryEvent.followed(.progress(stopped: false, reasons: ["job-printing"], impressions: 0), cancelRequested: false)
        let (_, actions) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [.submitted(.accepted(PrinterTicket(41)))]
            + Array(repeating: still, count: 12), in: try Self.context())
        let pauses = actions.compactMap { action -> Int? in
            if case .pause(let wait) = action { return Int(wait.components.attoseconds / 1_000_000_000_000_000) + Int(wait.components.seconds) * 1000 }
            return nil
        }
        #expect(pauses.prefix(DeliveryMachine.quickLooks).allSatisfy { $0 == 10 })
        #expect(Array(pauses.dropFirst(DeliveryMachine.quickLooks).prefix(3)) == [20, 40, 80])
        #expect(pauses.last == 500, "the configured ceiling: \(pauses)")
    }

    @Test func aShorterFirstFollowWaitLooksSoonerThenBacksOffFromThere() throws {
        var context = try Self.context()
        context.firstFollowWait = .milliseconds(4)
        let still = DeliveryEvent.followed(.progress(stopped: false, reasons: ["job-printing"], impressions: 0), cancelRequested: false)
        let (_, actions) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [.submitted(.accepted(PrinterTicket(41)))]
            + Array(repeating: still, count: DeliveryMachine.quickLooks + 3), in: context)
        let pauses = actions.compactMap { action -> Duration? in
            if case .pause(let wait) = action { return wait }
            return nil
        }
        #expect(pauses == Array(repeating: .milliseconds(4), count: DeliveryMachine.quickLooks)
            + [.milliseconds(8), .milliseconds(16), .milliseconds(32)])
    }

    @Test func troubleWithinTheGraceWaitsAndPastItFailsOverToTheBackup() throws {
        let context = try Self.context()
        let paperOut = PrinterProblem(text: "Receipt reports media-empty.", reasons: ["media-empty"])
        let read = DeliveryEvent.read(cancelRequested: false, sentToPrinter: false, printers: 2)
        let (waiting, first) = Self.run(DeliveryState(step: .choosing), [read, .trouble(paperOut, at: Self.start)], in: context)
        #expect(waiting.targetIndex == 0 && waiting.step == .choosing)
        #expect(first == [.noteTrouble(paperOut), .markWaiting(reason: paperOut.text, stateReasons: ["media-empty"]),
                          .backOff(attempt: 0)])

        let (switched, second) = Self.run(waiting, [read, .trouble(paperOut, at: Self.start + .seconds(61))], in: context)
        #expect(switched.targetIndex == 1 && switched.attempt == 0 && switched.troubleSince == nil)
        #expect(second.last == .report(.failover(fromIndex: 0, toIndex: 1)))
        #expect(!second.contains(.backOff(attempt: 1)), "a failover goes on at once")
    }

    @Test func theLastPrinterWaitsForeverRatherThanFailingOver() throws {
        let paperOut = PrinterProblem(text: "out", reasons: ["media-empty"])
        let (state, actions) = Self.run(DeliveryState(step: .choosing), [
            .read(cancelRequested: false, sentToPrinter: false, printers: 1), .trouble(paperOut, at: Self.start),
            .read(cancelRequested: false, sentToPrinter: false, printers: 1), .trouble(paperOut, at: Self.start + .seconds(3600)),
        ], in: try Self.context())
        #expect(state.targetIndex == 0 && state.ended == nil)
        #expect(actions.filter { if case .report = $0 { true } else { false } }.isEmpty)
    }

    @Test func aRefusedMediaColIsSentOnceMoreWithTheNamedSizeThenFails() throws {
        let context = try Self.context()
        let (retried, actions) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [
            .submitted(.mediaColRefused("media-col not supported")),
        ], in: context)
        #expect(retried.namedMedia == "oe_roll" && retried.step == .choosing)
        #expect(actions.last == .report(.namedMediaFallback("oe_roll")))

        let (accepted, _) = Self.run(retried, Self.toSubmit + [.submitted(.accepted(PrinterTicket(3)))], in: context)
        #expect(accepted.notes == ["sent-with-named-media-oe_roll"])

        let (failed, _) = Self.run(retried, Self.toSubmit + [.submitted(.mediaColRefused("again"))], in: context)
        #expect(failed.ended?.state == .failed && failed.ended?.error == "again")
    }

    @Test func aLostAnswerIsLookedForBeforeAnythingIsSentAgain() throws {
        let context = try Self.context()
        let (searching, _) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [
            .submitted(.mayHaveBeenAccepted("the connection broke")),
        ], in: context)
        #expect(searching.step == .searching(.lostAnswer))

        // The printer cannot be asked: wait, never guess.
        let (stillSearching, waits) = Self.run(searching, [.searched(.cannotAsk("Host is down"))], in: context)
        #expect(stillSearching.step == .searching(.lostAnswer))
        #expect(waits.contains(.backOff(attempt: 0)))

        let (found, foundActions) = Self.run(stillSearching, [.searched(.found(PrinterTicket(9)))], in: context)
        #expect(found.step == .following(PrinterTicket(9)) && foundActions == [.markSent(PrinterTicket(9))])

        let (absent, absentActions) = Self.run(stillSearching, [.searched(.absent)], in: context)
        #expect(absent.step == .choosing)
        #expect(absentActions.first == .report(.retrying(reason: "the connection broke", attempt: 1)))
    }

    @Test func aBusyPrinterIsReportedOncePerReasonNotOnEveryRetry() throws {
        let context = try Self.context()
        let busy = DeliveryEvent.submitted(.retryable("busy"))
        let (_, actions) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [busy] + Self.toSubmit + [busy], in: context)
        let reports = actions.filter { if case .report(.retrying) = $0 { true } else { false } }
        #expect(reports == [.report(.retrying(reason: "busy", attempt: 0))])
        #expect(actions.contains(.backOff(attempt: 1)))
    }

    @Test func aRawPrinterThatCannotBeAskedFollowsTheRolesRule() throws {
        let lost: [DeliveryEvent] = Self.toSubmit + [.submitted(.mayHaveBeenAccepted("the connection broke after 812 of 9000 bytes.")),
                                                     .searched(.unsupported)]
        let (reprint, reprintActions) = Self.run(DeliveryState(step: .choosing), lost, in: try Self.context("receipt"))
        #expect(reprint.reprint && reprint.step == .choosing)
        #expect(reprintActions.contains(.report(.unknownFate(.reprintMarked, reason: "the connection broke after 812 of 9000 bytes."))))

        let (held, heldActions) = Self.run(DeliveryState(step: .choosing), lost, in: try Self.context("coupon"))
        #expect(held.ended?.state == .held)
        #expect(held.ended?.error?.contains("kioskprint jobs retry 7") == true)
        #expect(heldActions.contains(.report(.unknownFate(.hold, reason: "the connection broke after 812 of 9000 bytes."))))
    }

    @Test func repeatedUnknownFatesPauseLongerEachTimeAndAreHeldAfterTheLimit() throws {
        let context = try Self.context("receipt")
        let reason = "Receipt took all 9000 bytes but did not answer the status check after them."
        let lost: [DeliveryEvent] = Self.toSubmit + [.submitted(.mayHaveBeenAccepted(reason)), .searched(.unsupported)]
        var state = DeliveryState(step: .choosing)
        var pauses: [Int] = []
        var sends = 0
        // Every send's fate is unknown; ten rounds are far past any limit.
        while state.ended == nil, sends < 10 {
            let (next, actions) = Self.run(state, lost, in: context)
            #expect(actions.contains(.countFailedSend))
            pauses += actions.compactMap { if case .backOff(let attempt) = $0 { attempt } else { nil } }
            state = next
            sends += 1
        }
        // The first send and reprintLimit reprints, each after a longer pause than the one before.
        #expect(sends == DeliveryMachine.reprintLimit + 1)
        #expect(pauses == Array(0..<DeliveryMachine.reprintLimit))
        let policy = RetryPolicy()
        #expect(zip(pauses, pauses.dropFirst()).allSatisfy {
            policy.nominalDelay(afterAttempt: $0) < policy.nominalDelay(afterAttempt: $1)
        })
        // Then held, saying why and what to do.
        #expect(state.ended?.state == .held)
        let error = try #require(state.ended?.error)
        #expect(error.hasPrefix(reason))
        #expect(error.contains("Check the printer"))
        #expect(error.contains("kioskprint jobs retry 7"))
    }

    @Test func aJobThePrinterForgetsIsNotTakenAsPrinted() throws {
        let context = try Self.context("boarding-pass")
        let (state, _) = Self.run(DeliveryState(step: .following(PrinterTicket(5))), [
            .followed(.forgotten("the printer no longer lists its job 5"), cancelRequested: false),
            .searched(.absent),
        ], in: context)
        #expect(state.ended?.state == .held)
    }

    @Test func afterARestartAJobBeingSentIsLookedForAndFollowedIfFound() throws {
        let printer = JobPrinter(id: 1, name: "Receipt", uri: "ipp://localhost:8631/ipp/print")
        let job = PrintJob(id: JobID(7), name: "Receipt 1", role: try Role("receipt"),
                           content: .template(name: "receipt", dataJSON: "{}"), state: .sending,
                           createdAt: .init(), printer: printer, marker: "kp-7-abc")
        let start = DeliveryState.start(for: job)
        #expect(start.step == .searching(.recovery))
        let (found, actions) = Self.run(start, [.searched(.found(PrinterTicket(12)))], in: try Self.context())
        #expect(found.step == .following(PrinterTicket(12)))
        #expect(actions == [.markSent(PrinterTicket(12)), .report(.recovered(PrinterTicket(12)))])
        let (absent, _) = Self.run(start, [.searched(.absent)], in: try Self.context())
        #expect(absent.step == .choosing, "it never reached the printer: send it")

        var sent = job
        sent.state = .sent
        sent.printerJobID = 12
        #expect(DeliveryState.start(for: sent).step == .following(PrinterTicket(12)))
    }

    @Test func anOperatorsCancelIsPassedToThePrinterOnceAndEndsTheJobWhenItSaysSo() throws {
        let (state, actions) = Self.run(DeliveryState(step: .following(PrinterTicket(3))), [
            .followed(.progress(stopped: false, reasons: [], impressions: 0), cancelRequested: true),
            .cancelAsked(failure: nil),
            .followed(.progress(stopped: false, reasons: ["processing-to-stop-point"], impressions: 0), cancelRequested: true),
            .followed(.ended(.canceled, reasons: ["job-canceled-by-user"], impressions: 0, message: nil), cancelRequested: true),
        ], in: try Self.context())
        #expect(state.cancelSent)
        #expect(state.ended?.state == .canceled && state.ended?.error == "Canceled by the operator.")
        #expect(actions.filter { $0 == .finish(.canceled, error: "Canceled by the operator.") }.count == 1)
    }

    @Test func aCancelBeforeSendingEndsTheJobAtOnce() throws {
        let (state, actions) = Self.run(DeliveryState(step: .choosing),
                                        [.read(cancelRequested: true, sentToPrinter: false, printers: 1)], in: try Self.context())
        #expect(state.ended?.state == .canceled && actions == [.finish(.canceled, error: "Canceled before it was sent.")])
    }

    @Test func aRoleWithNoPrinterWaitsAndSaysHowToPickOne() throws {
        let (state, actions) = Self.run(DeliveryState(step: .choosing),
                                        [.read(cancelRequested: false, sentToPrinter: false, printers: 0)], in: try Self.context())
        #expect(state.step == .choosing)
        guard case .markWaiting(let reason, _) = actions.first else { Issue.record("no wait: \(actions)"); return }
        #expect(reason.contains("kioskprint printers pick --role receipt"))
    }

    @Test func badContentFailsAndAMissingRollWaits() throws {
        let context = try Self.context()
        let read = DeliveryEvent.read(cancelRequested: false, sentToPrinter: false, printers: 1)
        let (failed, _) = Self.run(DeliveryState(step: .choosing), [read, .ready(at: Self.start, warnings: []),
                                                                   .notPrepared("order.json:3:18: expected ','", permanent: true)], in: context)
        #expect(failed.ended?.state == .failed)
        let (waiting, _) = Self.run(DeliveryState(step: .choosing), [read, .ready(at: Self.start, warnings: []),
                                                                    .notPrepared("no paper fits", permanent: false)], in: context)
        #expect(waiting.ended == nil && waiting.step == .choosing && waiting.attempt == 1)
    }

    @Test func aRawPrinterConfirmsThePrintWithinTheSubmission() throws {
        let (state, actions) = Self.run(DeliveryState(step: .choosing), Self.toSubmit + [
            .submitted(.printed(notes: ["raw-status-ok"], impressions: 2)),
        ], in: try Self.context())
        #expect(state.ended?.state == .completed)
        #expect(actions.suffix(2) == [.recordProgress(state: nil, reasons: ["raw-status-ok"], impressions: 2),
                                      .finish(.completed, error: nil)])
    }
}
