import Foundation

/// A `PrinterLink` for async code: each blocking call runs on a thread of
/// its own, never on Swift's cooperative pool (two threads on a kiosk box,
/// which one stuck printer must not hold). The calls end by their
/// deadlines as the blocking ones do. Cancelling the calling task closes the
/// link, which ends the call at once with `.cancelled`: a write cut short
/// leaves the printer mid-command, so the link is not used again.
public struct AsyncPrinterLink: Sendable {
    /// The blocking link underneath.
    public let link: any PrinterLink

    /// Wraps a link opened elsewhere (`RawLinks.open`, or a test double).
    public init(_ link: any PrinterLink) {
        self.link = link
    }

    /// `RawLinks.open` off the cooperative pool. Cancellation is noticed
    /// when the open returns (by its deadline); the link is then closed.
    public static func open(
        _ uri: RawPrinterURI, deadline: ContinuousClock.Instant, usbPrinters: USBPrinterDirectory = USBPrinterDirectory()
    ) async throws(LinkError) -> AsyncPrinterLink {
        let link = try await LinkThread.run(name: "KioskPrint open \(uri)", uri: uri, onCancel: {}) { () throws(LinkError) in
            try RawLinks.open(uri, deadline: deadline, usbPrinters: usbPrinters)
        }
        if Task.isCancelled {
            link.close()
            throw LinkError(uri: uri, reason: .cancelled)
        }
        return AsyncPrinterLink(link)
    }

    /// The printer's address, as every error names it.
    public var uri: RawPrinterURI { link.uri }

    /// `PrinterLink.write` on a thread of its own.
    public func write(_ bytes: [UInt8], stallWindow: Duration) async throws(LinkError) {
        let link = self.link
        try await LinkThread.run(name: "KioskPrint write \(link.uri)", uri: link.uri, onCancel: link.close) {
            () throws(LinkError) in
            try link.write(bytes, stallWindow: stallWindow)
        }
    }

    /// `PrinterLink.readAnswer` on a thread of its own: one thread for the
    /// whole answer, however many pieces it comes in (there is deliberately
    /// no async read of one piece, which would start a thread per piece).
    public func readAnswer(limit: Int, deadline: ContinuousClock.Instant, stallWindow: Duration? = nil,
                           isComplete: @escaping @Sendable ([UInt8]) -> Bool) async throws(LinkError) -> AnswerRead {
        let link = self.link
        return try await LinkThread.run(name: "KioskPrint read \(link.uri)", uri: link.uri, onCancel: link.close) {
            () throws(LinkError) in
            try link.readAnswer(limit: limit, deadline: deadline, stallWindow: stallWindow, isComplete: isComplete)
        }
    }

    /// Closes the link; does not block.
    public func close() { link.close() }
}

/// Blocking link calls on threads of their own (the pattern of IPP's
/// BlockingExchange, without its backstop: these calls keep their deadlines).
enum LinkThread {
    static func run<Value: Sendable>(name: String, uri: RawPrinterURI, onCancel: @escaping @Sendable () -> Void,
                                     work: @escaping @Sendable () throws(LinkError) -> Value) async throws(LinkError) -> Value {
        let result: Result<Value, LinkError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: Result { () throws(LinkError) in try work() })
                }
                thread.name = name
                thread.start()
            }
        } onCancel: {
            onCancel()  // never blocks: closing only wakes the call in progress
        }
        if case .failure(let error) = result, error.reason == .closed, Task.isCancelled {
            throw LinkError(uri: uri, reason: .cancelled)
        }
        return try result.get()
    }
}
