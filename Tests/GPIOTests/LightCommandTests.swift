import Glibc
import Simulator
import Testing

/// `kioskprint gpio set` with libgpiod replaced by the stand-in.
@Suite("gpio set through the libgpiod stand-in", .timeLimit(.minutes(2)))
struct LightCommandTests {
    @Test func onThenOff() async throws {
        let standIn = try await GPIOStandIn()
        let on = try await KioskPrintBinary.run(["gpio", "set", "--chip", "gpiochip0", "--line", "6", "on"], with: standIn)
        #expect(on.status == 0)
        #expect(on.output == "line 6 of gpiochip0 is on.\n")
        #expect(standIn.value(line: 6) == 1)
        let off = try await KioskPrintBinary.run(["gpio", "set", "--chip", "gpiochip0", "--line", "6", "off"], with: standIn)
        #expect(off.status == 0)
        #expect(standIn.value(line: 6) == 0)
        // Each request starts the line off, then the set: off, on; off, off.
        #expect(standIn.changes(line: 6) == [0, 1, 0, 0])
        #expect(standIn.request(line: 6) == nil)
    }

    @Test func anActiveLowLightIsLitByDrivingTheLineLow() async throws {
        let standIn = try await GPIOStandIn()
        let on = try await KioskPrintBinary.run(["gpio", "set", "--chip", "gpiochip0", "--line", "7", "on", "--active-low"],
                                                with: standIn)
        #expect(on.status == 0)
        #expect(standIn.value(line: 7) == 0)
        #expect(standIn.changes(line: 7) == [1, 0])
    }

    @Test func blinkAlternatesUntilStoppedAndEndsOff() async throws {
        let standIn = try await GPIOStandIn()
        let blink = try RunningCommand(["gpio", "set", "--chip", "gpiochip0", "--line", "12", "blink", "--period", "20ms"],
                                       with: standIn)
        #expect(await blink.requested(line: 12, on: standIn)?.direction == "output")
        #expect(await pollUntil(within: .seconds(20)) { standIn.changes(line: 12).count >= 6 })
        blink.process.signal(SIGTERM)
        #expect(await blink.exitCode() == 0)
        let changes = standIn.changes(line: 12)
        // Off at the request, then on, off, on, ... and off once stopped
        // (which may repeat the last blink's off).
        #expect(Array(changes.prefix(3)) == [0, 1, 0])
        #expect(alternates(changes.dropLast()))
        #expect(changes.last == 0)
        #expect(standIn.value(line: 12) == 0)
        #expect(standIn.request(line: 12) == nil)
    }

    @Test func onForAWhileThenOff() async throws {
        let standIn = try await GPIOStandIn()
        let result = try await KioskPrintBinary.run(["gpio", "set", "--chip", "gpiochip0", "--line", "3", "on", "--for", "50ms"],
                                                    with: standIn)
        #expect(result.status == 0)
        #expect(standIn.changes(line: 3) == [0, 1, 0])
    }

    @Test func aBusyLightLineNamesWhoHoldsIt() async throws {
        let standIn = try await GPIOStandIn()
        try standIn.markBusy(line: 6, consumer: "gpioset")
        let result = try await KioskPrintBinary.run(["gpio", "set", "--chip", "gpiochip0", "--line", "6", "on"], with: standIn)
        #expect(result.status != 0)
        #expect(result.errors.contains("already in use by \"gpioset\""))
        #expect(standIn.changes(line: 6).isEmpty)
    }

    @Test func aBadDurationIsRefusedBeforeAnyLineIsTouched() async throws {
        let standIn = try await GPIOStandIn()
        let result = try await KioskPrintBinary.run(["gpio", "set", "--chip", "gpiochip0", "--line", "6", "blink", "--period", "fast"],
                                                    with: standIn)
        #expect(result.status != 0)
        #expect(result.errors.contains("\"fast\" is not a duration"))
        #expect(standIn.changes(line: 6).isEmpty)
    }
}
