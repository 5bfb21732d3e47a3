import Foundation
public import PrintModel
import Timers

/// Finds printers on the local network through avahi-daemon (DNS-SD), live:
/// printers appear, change and disappear while the browse runs. IPP printers
/// by default; raw socket printers too when `rawServiceType` is browsed.
///
/// A value that describes a browse; each call to `events()` starts one, on a
/// thread of its own, and ends it when the stream is cancelled or dropped.
public struct PrinterBrowser: Sendable {
    /// The DNS-SD service types browsed, e.g. `_ipp._tcp`.
    public let serviceTypes: [String]

    /// The IPP printers' types, browsed unless told otherwise.
    public static let ippServiceTypes = ["_ipp._tcp", "_ipps._tcp"]
    /// Raw socket printers (port 9100, "pdl-datastream"): ESC/POS and ZPL
    /// printers announce this type, and it answers no IPP.
    public static let rawServiceType = "_pdl-datastream._tcp"
    /// Every printer type KioskPrint can drive: IPP, then raw.
    public static let allServiceTypes = ippServiceTypes + [rawServiceType]

    public init(serviceTypes: [String] = PrinterBrowser.ippServiceTypes) {
        // The same type twice would only double the work: keep the first of each.
        var seen: Set<String> = []
        self.serviceTypes = serviceTypes.filter { seen.insert($0.lowercased()).inserted }
    }

    /// Starts browsing and returns its events: `.appeared`, `.changed` and
    /// `.disappeared` for printers, and `.settled` once when the first full
    /// answer is in. The stream throws a `DiscoveryError` when Avahi cannot be
    /// reached or fails; it never ends on its own otherwise. Cancelling the
    /// iterating task, or dropping the stream, stops the browse and frees
    /// everything it used.
    public func events() -> AsyncThrowingStream<DiscoveryEvent, any Error> {
        events(afterStop: nil)
    }

    /// `events()`, calling `afterStop` on the poll thread once every Avahi
    /// object of the browse has been freed: the tests' window on clean-up.
    func events(afterStop: (@Sendable () -> Void)?) -> AsyncThrowingStream<DiscoveryEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: DiscoveryEvent.self,
                                                                      throwing: (any Error).self)
        guard let wake = WakePipe() else {
            continuation.finish(throwing: DiscoveryError.system(operation: "create a pipe", errno: errno))
            return stream
        }
        // Set before the thread starts, so a stream dropped at once still stops it.
        continuation.onTermination = { _ in wake.wake() }
        let types = serviceTypes
        let thread = Thread {
            AvahiSession.run(serviceTypes: types, continuation: continuation, wake: wake)
            afterStop?()
        }
        thread.name = "kioskprint-avahi"
        thread.start()
        return stream
    }

    /// The printers found once the browse has settled, or when `timeout`
    /// runs out, whichever comes first, sorted by service name. A timeout is
    /// not an error: it returns what was found by then.
    public func snapshot(timeout: Duration) async throws -> [DiscoveredPrinter] {
        let stream = events()
        return try await withThrowingTaskGroup(of: [DiscoveredPrinter]?.self) { group in
            group.addTask { try await PrinterBrowser.collect(stream) }
            group.addTask {
                // Cancelled when the collector finishes first; the error just ends this task.
                try? await Task.sleep(for: timeout)
                return nil
            }
            // The first to finish decides: the collector's list, or the timer's nil.
            let first = try await group.next()!
            group.cancelAll()
            if let printers = first { return printers }
            // The timer won: the cancelled collector returns what it has so far.
            while let result = try await group.next() {
                if let printers = result { return printers }
            }
            return []
        }
    }

    /// Follows the events until `.settled` (or until cancelled), keeping the
    /// current version of each printer.
    private static func collect(_ stream: AsyncThrowingStream<DiscoveryEvent, any Error>) async throws
        -> [DiscoveredPrinter] {
        var printers: [String: DiscoveredPrinter] = [:]
        do {
            loop: for try await event in stream {
                switch event {
                case .appeared(let printer), .changed(let printer): printers[printer.id] = printer
                case .disappeared(let id): printers[id] = nil
                case .settled: break loop
                }
            }
        } catch is CancellationError {
            // Cancelled by the timeout: what we have is the answer.
        }
        return printers.values.sorted {
            ($0.serviceName.lowercased(), $0.id) < ($1.serviceName.lowercased(), $1.id)
        }
    }
}
