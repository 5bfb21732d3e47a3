import Foundation

/// An error shown to the person at the terminal: its own description, which
/// already says what happened and what to do. ArgumentParser prints it as
/// `Error: ...` and exits with status 1.
package struct CLIError: Error, CustomStringConvertible {
    package let description: String
    package init(_ error: any Error) { description = "\(error)" }
    package init(_ message: String) { description = message }

    /// Runs `body`, turning its error into one shown as it describes itself.
    package static func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw CLIError(error) }
    }

    package static func wrapAsync<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw CLIError(error) }
    }
}

/// A one-line progress message on standard error, rewritten in place; shown
/// only when standard error is a terminal, so logs and pipes stay clean.
package struct ProgressLine: Sendable {
    package let enabled: Bool

    package init(enabled: Bool = true) { self.enabled = enabled && isatty(STDERR_FILENO) == 1 }

    package func show(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }

    package func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

extension Duration {
    /// `0.84 s`.
    package var formattedSeconds: String {
        let (seconds, attoseconds) = components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return String(format: "%.2f s", value)
    }
}
