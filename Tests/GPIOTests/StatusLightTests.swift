import GPIO
import Simulator
import Testing
import Triggers
import Synchronization

@Suite("Status light", .timeLimit(.minutes(1)))
struct StatusLightTests {
    @Test func onLightsTheLineOnceEvenIfShownTwice() {
        let line = RecordingLine()
        let light = StatusLight(line: line)
        light.show(.on)
        light.show(.on)
        #expect(line.values == [true])
        #expect(light.pattern == .on)
    }

    @Test func offDarkensTheLine() {
        let line = RecordingLine()
        let light = StatusLight(line: line)
        light.show(.on)
        light.show(.off)
        #expect(line.values == [true, false])
        #expect(light.pattern == .off)
    }

    @Test func blinkingTogglesStartingLit() async {
        let line = RecordingLine()
        let light = StatusLight(line: line, blinkPeriod: .milliseconds(10))
        defer { light.stop() }
        light.show(.blinking)
        #expect(await pollUntil(within: .seconds(60)) { line.values.count >= 5 })
        let values = line.values
        #expect(values.first == true)
        #expect(alternates(values))
    }

    @Test func showingOnEndsTheBlinking() async {
        let line = RecordingLine()
        let light = StatusLight(line: line, blinkPeriod: .milliseconds(10))
        defer { light.stop() }
        light.show(.blinking)
        #expect(await pollUntil(within: .seconds(60)) { line.values.count >= 3 })
        light.show(.on)
        let settled = line.values
        #expect(settled.last == true)
        // A second light with the same period shows time passing: once it has
        // toggled four times, the first would have toggled too had it kept blinking.
        let reference = RecordingLine()
        let clock = StatusLight(line: reference, blinkPeriod: .milliseconds(10))
        defer { clock.stop() }
        clock.show(.blinking)
        #expect(await pollUntil(within: .seconds(60)) { reference.values.count >= 5 })
        #expect(line.values == settled)
    }

    @Test func stopTurnsTheLightOffAndReleasesTheLine() async {
        let line = RecordingLine()
        let light = StatusLight(line: line, blinkPeriod: .milliseconds(10))
        light.show(.blinking)
        #expect(await pollUntil(within: .seconds(60)) { line.values.count >= 2 })
        light.stop()
        #expect(line.values.last == false)
        #expect(line.isClosed)
        #expect(light.pattern == nil)
        let count = line.values.count
        light.show(.on)  // ignored after stop
        #expect(line.values.count == count)
    }

    @Test func runShowsEachPatternThenStops() async {
        let line = RecordingLine()
        let light = StatusLight(line: line)
        let (patterns, continuation) = AsyncStream<LightPattern>.makeStream()
        continuation.yield(.on)
        continuation.yield(.on)
        continuation.yield(.off)
        continuation.finish()
        await light.run(patterns)
        #expect(line.values == [true, false, false])
        #expect(line.isClosed)
    }

    @Test func aFailedSetIsReportedAndTheLightCarriesOn() {
        let failure = GPIOError(chip: "gpiochip0", line: .offset(4), reason: .ioFailed(errno: 5))
        let line = RecordingLine(failing: failure)
        let reported = Reports()
        let light = StatusLight(line: line) { reported.add($0) }
        light.show(.on)
        light.show(.off)
        #expect(reported.all == [failure, failure])
        #expect(light.pattern == .off)
    }
}

/// Errors passed to a light's onError.
private final class Reports: Sendable {
    private let errors = Mutex<[GPIOError]>([])
    func add(_ error: GPIOError) { errors.withLock { $0.append(error) } }
    var all: [GPIOError] { errors.withLock { $0 } }
}
