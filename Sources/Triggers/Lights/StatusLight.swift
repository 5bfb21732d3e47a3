public import GPIO
import Synchronization

/// What a status light shows.
public enum LightPattern: String, Sendable, Hashable, CaseIterable {
    /// Steadily lit: the printer is ready.
    case on
    /// On and off, every `blinkPeriod`: the printer needs attention.
    case blinking
    /// Dark: the printer cannot be reached.
    case off
}

/// Drives one output line as a status light.
///
/// `show(_:)` switches pattern at once; blinking toggles the line every
/// `blinkPeriod` from a task of its own, which a later `show` or `stop`
/// ends before it can toggle again. The light owns its line: `stop()` turns
/// it off and releases it. A failed `set` is passed to `onError` and the
/// light carries on (the next change may succeed).
public final class StatusLight: Sendable {
    public let blinkPeriod: Duration
    private let line: any OutputLine
    private let onError: @Sendable (GPIOError) -> Void
    private let state = Mutex(State())

    private struct State {
        var pattern: LightPattern?
        var lit = false
        var stopped = false
        /// Bumped on every change, so a blink task started for an older
        /// pattern never toggles after a newer one took over.
        var generation = 0
        var blinker: Task<Void, Never>?
    }

    public init(line: any OutputLine, blinkPeriod: Duration = .milliseconds(500),
                onError: @escaping @Sendable (GPIOError) -> Void = { _ in }) {
        self.line = line
        self.blinkPeriod = blinkPeriod
        self.onError = onError
    }

    /// The pattern shown now; nil before the first `show` and after `stop`.
    public var pattern: LightPattern? { state.withLock { $0.stopped ? nil : $0.pattern } }

    /// Shows `pattern`. Showing the pattern already shown changes nothing
    /// (a blink keeps its rhythm); ignored after `stop()`.
    public func show(_ pattern: LightPattern) {
        let failure: GPIOError? = state.withLock { state in
            guard !state.stopped, state.pattern != pattern else { return nil }
            state.pattern = pattern
            state.generation += 1
            state.blinker?.cancel()
            state.blinker = nil
            let failure = drive(pattern != .off, &state)
            if pattern == .blinking {
                let generation = state.generation
                state.blinker = Task { await self.blink(generation) }
            }
            return failure
        }
        failure.map(onError)
    }

    /// Shows each pattern as it arrives; when the sequence ends (an
    /// AsyncStream also ends when this task is cancelled), stops the light.
    public func run(_ patterns: some AsyncSequence<LightPattern, Never> & Sendable) async {
        for await pattern in patterns { show(pattern) }
        stop()
    }

    /// Ends any blinking, turns the light off and releases the line. Safe to call twice.
    public func stop() {
        let failure: GPIOError? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            state.generation += 1
            state.blinker?.cancel()
            state.blinker = nil
            return drive(false, &state)
        }
        line.close()
        failure.map(onError)
    }

    /// Toggles the line every period while `generation` is current.
    private func blink(_ generation: Int) async {
        while !Task.isCancelled {
            // The sleep is the blink itself; cancellation ends it early.
            do { try await Task.sleep(for: blinkPeriod) } catch { return }
            let (current, failure) = state.withLock { state -> (Bool, GPIOError?) in
                guard state.generation == generation, !state.stopped else { return (false, nil) }
                return (true, drive(!state.lit, &state))
            }
            failure.map(onError)
            if !current { return }
        }
    }

    /// Sets the line, remembering what it shows; the error to report, if any.
    private func drive(_ lit: Bool, _ state: inout State) -> GPIOError? {
        do throws(GPIOError) {
            try line.set(lit)
            state.lit = lit
            return nil
        } catch {
            return error
        }
    }
}
