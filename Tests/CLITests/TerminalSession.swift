import Foundation
import Simulator

/// A real terminal for testing interactive commands: a tmux session on a
/// private server socket, typed into with send-keys and read with capture-pane,
/// as a person at the keyboard would see it.
final class TerminalSession {
    let socket = "kioskprint-test-\(UUID().uuidString.prefix(8))"

    init(width: Int = 200, height: Int = 50, environment: [String: String]) throws {
        let exports = environment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        try tmux(["new-session", "-d", "-s", "main", "-x", String(width), "-y", String(height),
                  "env \(exports) bash --norc --noprofile"])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// Types `text`; with `enter`, presses Enter after it.
    func type(_ text: String, enter: Bool = false) throws {
        try tmux(["send-keys", "-t", "main", "-l", text])
        if enter { try tmux(["send-keys", "-t", "main", "Enter"]) }
    }

    /// What the screen shows now.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", "main", "-J"])
    }

    /// Waits until the screen shows something that `condition` accepts, and returns
    /// that screen; after `limit` it throws with the last screen in the message.
    @discardableResult
    func waitFor(_ what: String, within limit: Duration = .seconds(20),
                 _ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + limit
        var last = ""
        while ContinuousClock.now < deadline {
            last = try screen()
            if condition(last) { return last }
            // Sleeping, not blocking: the test process has one cooperative thread per core.
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TerminalError.neverShown(what, screen: last)
    }

    func waitFor(text: String, within limit: Duration = .seconds(20)) async throws -> String {
        try await waitFor("'\(text)'", within: limit) { $0.contains(text) }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run("tmux", ["-L", socket, "-f", "/dev/null"] + arguments, limit: .seconds(10))
        guard result.status == 0 else { throw TerminalError.tmuxFailed(arguments, result.output + result.errors) }
        return result.output
    }
}

enum TerminalError: Error, CustomStringConvertible {
    case neverShown(String, screen: String)
    case tmuxFailed([String], String)

    var description: String {
        switch self {
        case .neverShown(let what, let screen): "The terminal never showed \(what). Last screen:\n\(screen)"
        case .tmuxFailed(let arguments, let text): "tmux \(arguments.joined(separator: " ")) failed: \(text)"
        }
    }
}
