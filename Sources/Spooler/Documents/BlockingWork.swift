import Dispatch

/// Work that blocks a thread for long (Ghostscript drawing a PDF for up to
/// 60 s, a long report laid out for seconds), run on a dispatch thread of
/// its own: Swift's cooperative pool has one thread a core, two on a kiosk
/// box, and everything else the agent does (its listeners, the other
/// printers' jobs) waits while one of them is blocked.
enum BlockingWork {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws(DeliveryError) -> T) async throws(DeliveryError) -> T {
        let result: Result<T, DeliveryError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(DeliveryError) in try work() })
            }
        }
        return try result.get()
    }
}
