import Glibc
import GPIO
import PrintModel
import Testing

@Suite("GPIO errors and addresses", .timeLimit(.minutes(1)))
struct GPIOErrorTests {
    @Test func digitsAreAnOffsetAnythingElseAName() {
        #expect(LineSelector("17") == .offset(17))
        #expect(LineSelector("GPIO17") == .name("GPIO17"))
        #expect(LineSelector("-1") == .name("-1"))
        #expect(LineSelector("") == .name(""))
    }

    @Test func aMissingChipSaysWhatToRun() {
        let error = GPIOError(chip: "gpiochip9", line: .offset(17), reason: .noSuchChip(errno: ENOENT))
        #expect(error.description == "GPIO chip \"gpiochip9\" does not exist (No such file or directory). "
            + "Run gpiodetect to list this machine's chips and set the chip to one of them.")
        #expect(error.description(chipSetting: "button[1].chip", lineSetting: "button[1].line")
            .hasSuffix("set button[1].chip to one of them."))
    }

    @Test func aBusyLineNamesItsHolder() {
        let error = GPIOError(chip: "gpiochip0", line: .offset(17), reason: .busy(consumer: "other-consumer"))
        #expect(error.description == "line 17 of gpiochip0 is already in use by \"other-consumer\"; stop that program "
            + "or pick another line (gpioinfo gpiochip0 shows who holds each line).")
    }

    @Test func anUnknownNameListsSomeNamesOrAsksForAnOffset() {
        let named = GPIOError(chip: "gpiochip0", line: .name("GPIO99"),
                              reason: .noSuchLineName(someNames: ["GPIO0", "GPIO1"], lineCount: 32))
        #expect(named.description.contains("\"GPIO0\", \"GPIO1\""))
        let unnamed = GPIOError(chip: "gpiochip0", line: .name("GPIO99"), reason: .noSuchLineName(someNames: [], lineCount: 8))
        #expect(unnamed.description(chipSetting: nil, lineSetting: "light[2].line")
            .contains("Set light[2].line to an offset from 0 to 7"))
    }

    /// This process has no stand-in loaded: the real libgpiod answers.
    @Test func theRealLibraryReportsAChipThatIsNotThere() {
        let address = LineAddress(chip: "kioskprint-no-such-chip", line: .offset(0))
        #expect(throws: GPIOError(chip: "kioskprint-no-such-chip", line: .offset(0), reason: .noSuchChip(errno: ENOENT))) {
            _ = try Libgpiod().watch(address, consumer: "kioskprint-test", settings: InputSettings())
        }
        #expect(throws: GPIOError.self) {
            _ = try Libgpiod().output(address, consumer: "kioskprint-test", activeLow: false)
        }
    }
}
