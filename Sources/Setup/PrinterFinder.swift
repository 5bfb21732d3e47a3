import Discovery
import Foundation
import Synchronization
import IPP
public import PrintModel

/// Finds printers live: browses DNS-SD, contacts each printer as it appears
/// to learn its kinds and state, and publishes the whole list every time it
/// changes. The picker and `printers discover` both stand on it.
///
/// IPP printers are contacted over IPP; raw ones (`_pdl-datastream._tcp`)
/// never get IPP: their TXT model is looked up in the catalog and, when
/// found, their status is asked in their own language.
public struct PrinterFinder: Sendable {
    /// The state of the search, sent after every change.
    public struct Snapshot: Sendable, Equatable {
        /// Every printer seen so far, in the order they appeared, filtered by kind.
        public var printers: [PrinterListing]
        /// How many were found before the kind filter.
        public var foundCount: Int
        /// True once Avahi has reported everything it knows and every printer has been contacted.
        public var complete: Bool

        /// Nothing found yet.
        public static let empty = Snapshot(printers: [], foundCount: 0, complete: false)
    }

    public var kinds: Set<JobKind>
    public var contactTimeout: Duration
    var browser: PrinterBrowser

    public init(kinds: Set<JobKind> = [], contactTimeout: Duration = .seconds(3)) {
        self.kinds = kinds
        self.contactTimeout = contactTimeout
        self.browser = PrinterBrowser(serviceTypes: PrinterBrowser.allServiceTypes)
    }

    /// Snapshots of the live list. Ends with an error when browsing is
    /// impossible (no Avahi); otherwise runs until the consumer stops.
    public func snapshots() -> AsyncThrowingStream<Snapshot, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Snapshot, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            let list = ListingBook(kinds: kinds)
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for try await event in browser.events() {
                        switch event {
                        case .appeared(let printer), .changed(let printer):
                            if let (number, generation) = await list.upsert(printer) {
                                group.addTask {
                                    let result = await Self.contact(printer, timeout: contactTimeout)
                                    await list.record(result, for: number, generation: generation)
                                    continuation.yield(await list.snapshot())
                                }
                            }
                        case .disappeared(let id):
                            await list.remove(id)
                        case .settled:
                            await list.markSettled()
                        }
                        continuation.yield(await list.snapshot())
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The complete list, once Avahi has settled and every printer answered,
    /// or what is known when `timeout` passes. `progress` sees every change.
    public func find(timeout: Duration,
                     progress: @escaping @Sendable (Snapshot) -> Void = { _ in }) async throws -> Snapshot {
        let latest = SharedSnapshot()
        let stream = snapshots()
        return try await withThrowingTaskGroup(of: Snapshot?.self) { group in
            group.addTask {
                for try await snapshot in stream {
                    latest.value.withLock { $0 = snapshot }
                    progress(snapshot)
                    if snapshot.complete { return snapshot }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)  // the upper bound of the search, not a synchronisation
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first ?? latest.value.withLock { $0 }
        }
    }

    static func contact(_ printer: DiscoveredPrinter, timeout: Duration) async -> PrinterListing.ContactState {
        if printer.raw { return await RawDiscoveryContact.contact(printer, timeout: timeout) }
        do {
            return .answered(try await PrinterContact.contact(uri: printer.uri, timeout: timeout, txt: printer.txt))
        } catch {
            return .failed("\(error)")
        }
    }
}

/// The finder's list, shared between the browsing loop and the contacts.
private actor ListingBook {
    let kinds: Set<JobKind>
    var entries: [PrinterListing] = []
    /// Bumped each time a printer's record changes, so a slow answer about
    /// an old address cannot overwrite a newer one.
    var generations: [Int: Int] = [:]
    var settled = false

    init(kinds: Set<JobKind>) { self.kinds = kinds }

    /// Adds or updates a printer; returns its number and generation when it needs contacting.
    func upsert(_ printer: DiscoveredPrinter) -> (Int, Int)? {
        if let index = entries.firstIndex(where: { $0.id == printer.id }) {
            let addressChanged = entries[index].uri != printer.uri
            entries[index].discovered = printer
            guard addressChanged else { return nil }
            entries[index].contact = .pending
            let number = entries[index].number
            generations[number, default: 0] += 1
            return (number, generations[number]!)
        }
        let number = (entries.map(\.number).max() ?? 0) + 1
        entries.append(PrinterListing(number: number, discovered: printer))
        generations[number] = 0
        return (number, 0)
    }

    func record(_ result: PrinterListing.ContactState, for number: Int, generation: Int) {
        guard generations[number] == generation,
              let index = entries.firstIndex(where: { $0.number == number }) else { return }
        entries[index].contact = result
    }

    func remove(_ id: String) { entries.removeAll { $0.id == id } }
    func markSettled() { settled = true }

    func snapshot() -> PrinterFinder.Snapshot {
        let pending = entries.contains { if case .pending = $0.contact { true } else { false } }
        return PrinterFinder.Snapshot(printers: entries.filter { $0.matches(kinds) },
                                      foundCount: entries.count, complete: settled && !pending)
    }
}


/// The newest snapshot, shared between the task that reads the stream and the
/// one that returns when time runs out.
private final class SharedSnapshot: Sendable {
    let value = Mutex(PrinterFinder.Snapshot.empty)
}
