import Glibc
import Simulator
import Testing

/// `kioskprint gpio watch` with libgpiod replaced by the stand-in: the real
/// binding, decoder and command, with edges the test writes.
@Suite("gpio watch through the libgpiod stand-in", .timeLimit(.minutes(2)))
struct ButtonCommandTests {
    @Test func printsAShortThenALongPress() async throws {
        let standIn = try await GPIOStandIn()
        let watch = try RunningCommand(["gpio", "watch", "--chip", "gpiochip0", "--line", "17", "--count", "2"], with: standIn)
        // The defaults reach the request: active-low, pull-up.
        #expect(await watch.requested(line: 17, on: standIn)
            == GPIOStandIn.Request(consumer: "kioskprint-gpio", direction: "input", activeLow: true, bias: "pull-up"))
        try await standIn.press(line: 17, heldFor: .milliseconds(120))
        try await standIn.press(line: 17, heldFor: .seconds(3))
        #expect(await watch.exitCode() == 0)
        #expect(watch.outputLines == ["short press (held 0.12 s)", "long press (held 3.00 s)"])
        #expect(standIn.request(line: 17) == nil)  // released on exit
    }

    @Test func requestsWithTheGivenWiringAndBias() async throws {
        let standIn = try await GPIOStandIn()
        let watch = try RunningCommand(["gpio", "watch", "--chip", "gpiochip0", "--line", "4", "--active-high",
                                        "--bias", "pull-down", "--count", "1"], with: standIn)
        let request = await watch.requested(line: 4, on: standIn)
        #expect(request == GPIOStandIn.Request(consumer: "kioskprint-gpio", direction: "input", activeLow: false, bias: "pull-down"))
        // Wired to drive the line high when pressed: no inversion on the way.
        try await standIn.press(line: 4, heldFor: .milliseconds(250), wiredActiveLow: false)
        #expect(await watch.exitCode() == 0)
        #expect(watch.outputLines == ["short press (held 0.25 s)"])
    }

    @Test func contactBounceMakesOnePress() async throws {
        let standIn = try await GPIOStandIn()
        let watch = try RunningCommand(["gpio", "watch", "--chip", "gpiochip0", "--line", "5", "--debounce", "30ms",
                                        "--count", "1"], with: standIn)
        #expect(await watch.requested(line: 5, on: standIn)?.direction == "input")
        // Active-low: low is pressed. Chatter for 4 ms on press and on release.
        for (high, after) in [(false, 1000), (true, 2), (false, 2), (true, 500), (false, 2), (true, 2)] {
            try await standIn.edge(line: 5, high: high, after: .milliseconds(after))
        }
        #expect(await watch.exitCode() == 0)
        #expect(watch.outputLines == ["short press (held 0.50 s)"])
    }

    @Test func aLineGivenByNameIsFound() async throws {
        let standIn = try await GPIOStandIn()
        let watch = try RunningCommand(["gpio", "watch", "--chip", "standin-pinctrl", "--line", "GPIO17", "--count", "1"],
                                       with: standIn)
        #expect(await watch.requested(line: 17, chip: "gpiochip0", on: standIn)?.direction == "input")
        try await standIn.press(line: 17, heldFor: .milliseconds(80))
        #expect(await watch.exitCode() == 0)
        #expect(watch.outputLines == ["short press (held 0.08 s)"])
    }

    @Test func sigtermStopsTheWatchAndReleasesTheLine() async throws {
        let standIn = try await GPIOStandIn()
        let watch = try RunningCommand(["gpio", "watch", "--chip", "gpiochip0", "--line", "9"], with: standIn)
        #expect(await watch.requested(line: 9, on: standIn) != nil)
        watch.process.signal(SIGTERM)
        #expect(await watch.exitCode() == 0)
        #expect(standIn.request(line: 9) == nil)
    }

    @Test func aMissingChipIsNamedWithWhatToRun() async throws {
        let standIn = try await GPIOStandIn()
        let result = try await KioskPrintBinary.run(["gpio", "watch", "--chip", "gpiochip9", "--line", "17"], with: standIn)
        #expect(result.status != 0)
        #expect(result.errors.contains("GPIO chip \"gpiochip9\" does not exist"))
        #expect(result.errors.contains("gpiodetect"))
    }

    @Test func aBusyLineNamesWhoHoldsIt() async throws {
        let standIn = try await GPIOStandIn()
        try standIn.markBusy(line: 17, consumer: "other-consumer")
        let result = try await KioskPrintBinary.run(["gpio", "watch", "--chip", "/dev/gpiochip0", "--line", "17"], with: standIn)
        #expect(result.status != 0)
        #expect(result.errors.contains("line 17 of /dev/gpiochip0 is already in use by \"other-consumer\""))
    }

    @Test func anUnknownLineNameListsNamesTheChipHas() async throws {
        let standIn = try await GPIOStandIn()
        let result = try await KioskPrintBinary.run(["gpio", "watch", "--chip", "gpiochip0", "--line", "GPIO99"], with: standIn)
        #expect(result.status != 0)
        #expect(result.errors.contains("no line of gpiochip0 is named \"GPIO99\"; its names include \"GPIO0\", \"GPIO1\""))
    }

    @Test func anOffsetPastTheLastLineSaysHowManyThereAre() async throws {
        let standIn = try await GPIOStandIn(chips: [GPIOStandIn.Chip(lines: 8)])
        let result = try await KioskPrintBinary.run(["gpio", "watch", "--chip", "0", "--line", "8"], with: standIn)
        #expect(result.status != 0)
        #expect(result.errors.contains("line 8 does not exist on 0: it has lines 0 to 7"))
    }

    @Test func aChipThatMayNotBeOpenedSaysWhoMay() async throws {
        let standIn = try await GPIOStandIn()
        try standIn.denyAccess()
        let result = try await KioskPrintBinary.run(["gpio", "watch", "--chip", "gpiochip0", "--line", "1"], with: standIn)
        #expect(result.status != 0)
        #expect(result.errors.contains("(Permission denied)"))
        #expect(result.errors.contains("gpio group"))
    }
}
