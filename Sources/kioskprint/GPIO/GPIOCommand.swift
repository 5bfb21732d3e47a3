import ArgumentParser
import CommandLineOutput
import KioskConfiguration
import Foundation
import GPIO
import PrintModel
import Synchronization
import Triggers

/// `kioskprint gpio ...`: a technician's check of a button or a light before
/// it goes into the configuration, with the same code the agent uses.
struct GPIOCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio",
        abstract: "Try a button or a status light wired to GPIO: print its presses, or light it.",
        discussion: "gpiodetect lists this machine's chips and gpioinfo CHIP their lines.",
        subcommands: [GPIOWatchCommand.self, GPIOSetCommand.self])
}

/// `--chip C --line L`, shared by both subcommands.
struct GPIOLineOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The GPIO chip: gpiochip0, its label, /dev/gpiochip0 or its number.", valueName: "chip"))
    var chip: String

    @Option(help: ArgumentHelp("The line: its offset (17) or its name (GPIO17).", valueName: "line"))
    var line: String

    var address: LineAddress { LineAddress(chip: chip, line: LineSelector(line)) }
}

/// `kioskprint gpio watch`: one line per press, at once, until stopped.
struct GPIOWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each press of a button: short or long, and how long it was held.",
        discussion: "Runs until Ctrl-C (or SIGTERM), or after --count presses. A long press shows when the button is released.")

    @OptionGroup var target: GPIOLineOptions

    @Flag(help: "The button drives the line high when pressed (default: active-low, the press pulls it to ground).")
    var activeHigh = false

    @Option(help: "The line's pull resistor: as-is, disable, pull-up or pull-down (default: pull-up).", transform: parseBias)
    var bias: Bias = .pullUp

    @Option(help: ArgumentHelp("Edges closer than this to the last one are contact bounce (default: 30ms).", valueName: "duration"),
            transform: parseDuration)
    var debounce: Duration = .milliseconds(30)

    @Option(help: ArgumentHelp("A press held this long or longer is a long press (default: 2s).", valueName: "duration"),
            transform: parseDuration)
    var longPressAfter: Duration = .seconds(2)

    @Option(help: "Exit after this many presses.")
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be 1 or more.") }
    }

    func run() async throws {
        // Caught before the line is requested, so no signal can leave it held.
        let stop = StopRequest.catchSignals()
        let settings = InputSettings(activeLow: !activeHigh, bias: bias)
        let source = try CLIError.wrap {
            try Libgpiod().watch(target.address, consumer: "kioskprint-gpio", settings: settings)
        }
        defer { source.close() }
        // A signal closes the line; the presses then end and the command returns normally.
        stop.onStop { source.close() }
        let wiring = activeHigh ? "active-high" : "active-low"
        note("Watching \(target.address) (\(wiring), bias \(bias.rawValue)); press the button. Ctrl-C stops.")

        let decoder = ButtonDecoder(debounce: debounce, longPressAfter: longPressAfter)
        var seen = 0
        for await press in ButtonPresses(source, decoder: decoder) {
            say("\(press.kind == .long ? "long" : "short") press (held \(press.held.formattedSeconds))")
            seen += 1
            if let count, seen >= count { break }
        }
    }
}

/// `kioskprint gpio set`: a light on, off or blinking.
struct GPIOSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Turn a light on or off, or blink it until Ctrl-C.",
        discussion: """
        on and off set the line and exit; most drivers keep the level after the line is released. \
        With --for, the light shows the state that long and is then turned off.
        """)

    enum State: String, ExpressibleByArgument, CaseIterable {
        case on, off, blink
    }

    @OptionGroup var target: GPIOLineOptions

    @Argument(help: "on, off or blink.")
    var state: State

    @Flag(help: "The light is lit by driving the line low.")
    var activeLow = false

    @Option(name: .customLong("for"), help: ArgumentHelp("Show the state this long, then turn the light off and exit.",
                                                          valueName: "duration"),
            transform: parseDuration)
    var duration: Duration?

    @Option(help: ArgumentHelp("How long each blink stays on, then off (default: 500ms).", valueName: "duration"),
            transform: parseDuration)
    var period: Duration = .milliseconds(500)

    func run() async throws {
        let stop = StopRequest.catchSignals()
        let line = try CLIError.wrap {
            try Libgpiod().output(target.address, consumer: "kioskprint-gpio", activeLow: activeLow)
        }
        if state != .blink && duration == nil {
            defer { line.close() }
            try CLIError.wrap { try line.set(state == .on) }
            say("\(target.address) is \(state.rawValue).")
            return
        }
        let light = StatusLight(line: line, blinkPeriod: period) { error in note("Error: \(error)") }
        light.show(state == .on ? .on : state == .off ? .off : .blinking)
        say("\(target.address) is \(state == .blink ? "blinking" : state.rawValue)"
            + (duration.map { " for \($0.formattedSeconds)." } ?? "; Ctrl-C stops."))
        await Self.until(stop, or: duration)
        light.stop()
    }

    /// Returns on SIGINT or SIGTERM, or once `limit` has passed.
    private static func until(_ request: StopRequest, or limit: Duration?) async {
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        request.onStop { stop.finish() }
        let timer = limit.map { limit in
            Task {
                try? await Task.sleep(for: limit)
                stop.finish()
            }
        }
        defer { timer?.cancel() }
        for await _ in stopped {}
    }
}

/// `--bias`: a transform rather than an ExpressibleByArgument conformance,
/// which would need GPIO and ArgumentParser imported publicly here.
func parseBias(_ text: String) throws -> Bias {
    guard let bias = Bias(rawValue: text.lowercased()) else {
        throw ValidationError("\"\(text)\" is not a bias: use \(Bias.allCases.map(\.rawValue).joined(separator: ", ")).")
    }
    return bias
}

/// A duration as the configuration writes it: `30ms`, `2s`, `1.5s`, `2m`.
func parseDuration(_ text: String) throws -> Duration {
    do { return try ConfigValues.duration(text) } catch { throw ValidationError(error.message) }
}

/// SIGINT and SIGTERM, turned into a request to stop: the line is then
/// released and a blinking light left off, instead of the process dying.
///
/// A plain sigaction handler writing to a pipe, not a DispatchSource: a
/// dispatch source is registered asynchronously after `resume()`, and a
/// signal arriving in between (after SIG_IGN) is lost, leaving a watch that
/// ignores SIGTERM. This handler is in place when `catchSignals()` returns.
final class StopRequest: Sendable {
    private let state = Mutex<(stopped: Bool, actions: [@Sendable () -> Void])>((false, []))

    /// Installs the handler; the process's one StopRequest.
    static func catchSignals() -> StopRequest {
        let request = StopRequest()
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return request }  // no descriptors: signals keep their default action
        stopSignalPipe = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(stopSignalPipe, &byte, 1)  // async-signal-safe, unlike everything else
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        let readEnd = ends[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0, errno == EINTR {}
            request.stop()
        }
        return request
    }

    /// Runs `action` on a stop, or now if the stop already came.
    func onStop(_ action: @escaping @Sendable () -> Void) {
        let stopped = state.withLock { state in
            if !state.stopped { state.actions.append(action) }
            return state.stopped
        }
        if stopped { action() }
    }

    func stop() {
        let actions = state.withLock { state in
            defer { state = (true, []) }
            return state.stopped ? [] : state.actions
        }
        actions.forEach { $0() }
    }
}

/// The write end of the signal pipe: set before the handler is installed,
/// read only by the handler.
nonisolated(unsafe) private var stopSignalPipe: Int32 = -1

/// One line on standard output, written at once: a technician watches it
/// live, and a pipe or file must not hold it in a buffer.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// One line on standard error, for what is not the command's output.
private func note(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
