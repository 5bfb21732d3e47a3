import Foundation
import Testing
@testable import Discovery
import PrintModel

/// Records a live browse's events with the time each arrived, and lets a test
/// wait, with a deadline, until the events satisfy a condition: waiting on
/// what happened, never on a fixed sleep.
actor EventLog {
    struct Entry: Sendable {
        let elapsed: Duration
        let event: DiscoveryEvent
    }

    struct TimedOut: Error, CustomStringConvertible {
        let what: String
        let seen: [Entry]
        var description: String {
            "timed out waiting for \(what); events so far:\n"
                + seen.map { "  \($0.elapsed): \($0.event)" }.joined(separator: "\n")
        }
    }

    private let started = ContinuousClock.now
    private(set) var entries: [Entry] = []
    /// Set when the stream has ended: nil error for a normal end.
    private var ending: (any Error)??
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var consumer: Task<Void, Never>?

    /// Starts `browser` and records its events until `stop()`.
    static func start(_ browser: PrinterBrowser = PrinterBrowser(),
                      afterStop: (@Sendable () -> Void)? = nil) async -> EventLog {
        let log = EventLog()
        let stream = browser.events(afterStop: afterStop)
        await log.consume(stream)
        return log
    }

    private func consume(_ stream: AsyncThrowingStream<DiscoveryEvent, any Error>) {
        consumer = Task { [weak self] in
            do {
                for try await event in stream { await self?.record(event) }
                await self?.end(nil)
            } catch {
                await self?.end(error)
            }
        }
    }

    private func record(_ event: DiscoveryEvent) {
        entries.append(Entry(elapsed: ContinuousClock.now - started, event: event))
        wakeWaiters()
    }

    private func end(_ error: (any Error)?) {
        ending = .some(error)
        wakeWaiters()
    }

    private func wakeWaiters() {
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }

    /// Cancels the consuming task, which terminates the stream.
    func stop() { consumer?.cancel() }

    deinit { consumer?.cancel() }

    /// Waits until `condition` holds for the events so far and returns them;
    /// throws the stream's error if it ends first, or `TimedOut` at the deadline.
    @discardableResult
    func wait(for what: String, timeout: Duration = .seconds(20),
              until condition: @Sendable ([Entry]) -> Bool) async throws -> [Entry] {
        let deadline = ContinuousClock.now + timeout
        // Wakes this actor's waiters at the deadline so the loop below can give up.
        let alarm = Task { [weak self] in
            try? await Task.sleep(until: deadline)
            await self?.wakeWaiters()
        }
        defer { alarm.cancel() }
        while true {
            if condition(entries) { return entries }
            if let ending {
                if let error = ending { throw error }
                throw TimedOut(what: "\(what) (the stream ended)", seen: entries)
            }
            if ContinuousClock.now >= deadline { throw TimedOut(what: what, seen: entries) }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// The error the stream ended with, waiting for the end up to `timeout`.
    func failure(timeout: Duration = .seconds(20)) async throws -> (any Error)? {
        do {
            try await wait(for: "the stream to end", timeout: timeout) { _ in false }
        } catch let timedOut as TimedOut where timedOut.what.hasSuffix("(the stream ended)") {
            return nil
        } catch let timedOut as TimedOut {
            throw timedOut
        } catch {
            return error
        }
        return nil
    }
}

extension [EventLog.Entry] {
    /// The printers as the events leave them: each printer's latest version.
    var currentPrinters: [String: DiscoveredPrinter] {
        var printers: [String: DiscoveredPrinter] = [:]
        for entry in self {
            switch entry.event {
            case .appeared(let printer), .changed(let printer): printers[printer.id] = printer
            case .disappeared(let id): printers[id] = nil
            case .settled: break
            }
        }
        return printers
    }

    var hasSettled: Bool { contains { $0.event == .settled } }

    /// The events about printer `id`, without `.settled`.
    func events(for id: String) -> [DiscoveryEvent] {
        compactMap {
            switch $0.event {
            case .appeared(let printer), .changed(let printer): printer.id == id ? $0.event : nil
            case .disappeared(let gone): gone == id ? $0.event : nil
            case .settled: nil
            }
        }
    }
}

/// A value unique to this test run, for names and UUIDs that no other browse
/// on the shared loopback (other test processes run labs too) can match.
func uniqueSuffix() -> String { String(UUID().uuidString.prefix(8)).lowercased() }

