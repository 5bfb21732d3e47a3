import Foundation
import PrintModel
import Spooler
import Synchronization
import Templates
import Testing

/// A burst of jobs to one real printer asks its state once; a failure makes
/// the next attempt ask again.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ReadinessReuseTests {
    @Test func aBurstAsksThePrinterOnceAndEveryJobWhenReuseIsOff() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Spool Burst")
        defer { printer.stop() }
        try await lab.assign(printer, to: "receipt")

        let reused = CountingChannels()
        var configuration = SpoolLab.configuration
        configuration.readinessReuse = .seconds(60)   // longer than the test: only failures may end it
        let spooler = reused.spooler(lab, configuration)
        for number in 1...4 {
            let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt \(number)")
            #expect(try await spooler.deliver(queued.id).state == .completed)
        }
        #expect(reused.readinessAsks == 1)

        let everyTime = CountingChannels()
        configuration.readinessReuse = .zero
        let asking = everyTime.spooler(lab, configuration)
        for number in 5...7 {
            let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt \(number)")
            #expect(try await asking.deliver(queued.id).state == .completed)
        }
        #expect(everyTime.readinessAsks == 3)
        #expect(try await printer.receivedJobs(atLeast: 7).count == 7)
    }

    @Test func aFailedSendEndsTheReuseSoTheRetryAsksAgain() async throws {
        let lab = try await SpoolLab.make()
        var printer = try await lab.printer(.receipt80mm, "Spool Reuse Gone")
        try await lab.assign(printer, to: "receipt")
        let channels = CountingChannels()
        var configuration = SpoolLab.configuration
        configuration.readinessReuse = .seconds(60)
        let spooler = channels.spooler(lab, configuration)

        let first = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 1")
        #expect(try await spooler.deliver(first.id).state == .completed)
        #expect(channels.readinessAsks == 1)
        // The printer goes away: the next job is sent on the earlier answer,
        // the send fails, and from then on the printer is asked before each try.
        printer.stop()
        let second = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 2")
        let delivery = Task { try await spooler.deliver(second.id) }
        let waiting = try await lab.job(second.id) { $0.state == .waiting }
        #expect(waiting.lastError != nil)
        printer = try await lab.lab.restart(printer)
        defer { printer.stop() }
        #expect(try await delivery.value.state == .completed)
        // Without the failure ending the reuse, the retries would have been sent unasked (1).
        #expect(channels.readinessAsks >= 2, "the retries asked the printer instead of trusting the old answer")
        #expect(try await printer.receivedJobs(atLeast: 1).contains { $0.jobName.contains(second.marker) })
    }

    /// `print --wait` asks the printer while its job is drawn and stored: the
    /// job is then sent on that answer, without asking a second time.
    @Test func aPrinterAskedAheadIsNotAskedAgainForTheJob() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Spool Asked Ahead")
        defer { printer.stop() }
        try await lab.assign(printer, to: "receipt")
        let saved = try #require(try await lab.store.assignments(for: try Role("receipt")).first?.printer)
        let channels = CountingChannels()
        var configuration = SpoolLab.configuration
        configuration.readinessReuse = .seconds(60)   // longer than the test: the answer may not lapse
        let spooler = channels.spooler(lab, configuration)

        await spooler.askReadiness(of: saved)
        #expect(channels.readinessAsks == 1)
        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt asked ahead")
        #expect(try await spooler.deliver(queued.id).state == .completed)
        #expect(channels.readinessAsks == 1, "the job asked the printer again instead of using the answer just given")
    }

    /// Trouble found ahead is not kept: the job's own check asks again, and
    /// prints once the printer answers.
    @Test func troubleFoundAheadIsAskedAgainByTheJob() async throws {
        let lab = try await SpoolLab.make()
        var printer = try await lab.printer(.receipt80mm, "Spool Trouble Ahead")
        try await lab.assign(printer, to: "receipt")
        let saved = try #require(try await lab.store.assignments(for: try Role("receipt")).first?.printer)
        let channels = CountingChannels()
        var configuration = SpoolLab.configuration
        configuration.readinessReuse = .seconds(60)
        let spooler = channels.spooler(lab, configuration)

        printer.stop()
        await spooler.askReadiness(of: saved)
        printer = try await lab.lab.restart(printer)
        defer { printer.stop() }
        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt after trouble")
        #expect(try await spooler.deliver(queued.id).state == .completed)
        #expect(channels.readinessAsks == 2, "the unreachable answer was trusted, or the job never asked")
    }
}

/// The real channels, counting the readiness asks that reach a printer.
final class CountingChannels: Sendable {
    private let asks = Mutex(0)
    var readinessAsks: Int { asks.withLock { $0 } }

    func spooler(_ lab: SpoolLab, _ configuration: SpoolerConfiguration) -> Spooler {
        let real = PrinterChannels.standard(timeout: configuration.requestTimeout)
        let channels = PrinterChannels { [self] target in Counted(inner: real.channel(for: target), counter: self) }
        let events = lab.events
        return Spooler(store: lab.store, preparer: DocumentPreparer(catalog: TemplateCatalog(folders: [])),
                       configuration: configuration, channels: channels) { events.append($0) }
    }

    fileprivate func count() { asks.withLock { $0 += 1 } }

    private struct Counted: PrinterChannel {
        let inner: any PrinterChannel
        let counter: CountingChannels
        func readiness() async -> Readiness { counter.count(); return await inner.readiness() }
        func submit(_ submission: ChannelSubmission) async -> SubmitOutcome { await inner.submit(submission) }
        func status(of ticket: PrinterTicket) async -> FollowOutcome { await inner.status(of: ticket) }
        func find(marker: String) async -> SearchOutcome { await inner.find(marker: marker) }
        func cancel(_ ticket: PrinterTicket) async -> String? { await inner.cancel(ticket) }
        func openDrawer() async -> DrawerOutcome { await inner.openDrawer() }
        func identify(actions: [String]) async -> IdentifyOutcome { await inner.identify(actions: actions) }
    }
}
