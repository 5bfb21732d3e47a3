import Glibc

/// Why a watched folder could not be used or a claimed file could not be
/// moved on. The message says what happened and what to do about it.
public struct TriggerError: Error, CustomStringConvertible, Sendable {
    /// What happened and what to do, in plain words.
    public let message: String

    init(_ message: String) { self.message = message }

    /// A failed system call on `path`, with the system's reason.
    static func system(_ action: String, _ path: String, errno code: Int32, advice: String) -> TriggerError {
        TriggerError("Could not \(action) \(path): \(errorText(code)). \(advice)")
    }

    public var description: String { message }
}

/// The system's wording for an errno value ("Permission denied").
func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
