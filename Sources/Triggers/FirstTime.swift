import Synchronization

/// True the first time only: a warning said once per watch, not per file.
final class FirstTime: Sendable {
    private let passed = Atomic<Bool>(false)

    func take() -> Bool { !passed.exchange(true, ordering: .relaxed) }
}
