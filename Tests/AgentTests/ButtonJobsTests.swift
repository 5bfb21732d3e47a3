@testable import Agent
import KioskConfiguration
import Foundation
import GPIO
import PrintModel
import Simulator
import Spooler
@_spi(Testing) import Store
import Templates
import Triggers
import Testing

/// Buttons through a GPIO test double: a press only queues, with the
/// agent's built-in values and a counter kept in the database.
@Suite(.timeLimit(.minutes(1))) struct ButtonJobsTests {
    let address = LineAddress(chip: "gpiochip0", line: .offset(17))

    func buttonSettings(chip: String = "gpiochip0") throws -> ButtonSettings {
        ButtonSettings(key: "button[1]", name: "take-a-number", line: LineAddress(chip: chip, line: .offset(17)),
                       debounce: .milliseconds(30), longPressAfter: .seconds(2),
                       press: .print(PrintAction(template: "ticket", role: try Role("ticket"), counter: "deli",
                                                 fixedData: ["heading": "Deli"])),
                       longPress: .reprint(try Role("ticket")))
    }

    /// A ticket template of the test's own, using the values the agent fills in.
    static let catalog: TemplateCatalog = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-tickets-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? Data("""
            <template page="roll">
              <text align="center" size="12">{{heading}}</text>
              <text align="center" size="40" bold="true">{{counter}}</text>
              <text size="8">{{date}} {{time}}, {{box}}, {{button}}</text>
            </template>
            """.utf8).write(to: URL(fileURLWithPath: folder + "/ticket.xml"))
        return TemplateCatalog(folders: [folder])
    }()

    func storePath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-agent-\(UUID().uuidString)/k.sqlite").path
    }

    @Test func pressesQueueNumberedTicketsAndALongPressReprints() async throws {
        let store = try KioskStore(path: storePath())
        let gpio = FakeGPIO()
        let log = LogRecorder()
        let jobs = ButtonJobs(settings: try buttonSettings(), gpio: gpio, intake: JobIntake(store: store, catalog: Self.catalog),
                              box: "till-3", logger: log.logger, jobQueued: {})
        let running = Task { await jobs.run() }
        defer { running.cancel() }
        try await pollUntil("the button's line to be requested", within: .seconds(10)) { gpio.watched.contains(address) }

        gpio.press(address, at: .seconds(10), held: .milliseconds(120))
        gpio.press(address, at: .seconds(11), held: .milliseconds(10))   // shorter than debounce: bounce, ignored
        gpio.press(address, at: .seconds(12), held: .milliseconds(200))
        gpio.press(address, at: .seconds(20), held: .seconds(3))        // long: reprint the last ticket
        // The limit bounds a failure only; the full suite on two cores has taken 50 s to get here.
        try await pollUntil("two tickets and a reprint to be queued", within: .seconds(60)) {
            if log.contains("error") { throw LoggedError(lines: log.all) }
            return try await store.jobs().count >= 3
        }
        let queued = try await store.jobs()
        #expect(queued.count == 3)
        #expect(queued.map(\.name) == ["ticket 1 (till-3)", "ticket 2 (till-3)", "Reprint of ticket 2 (till-3)"])
        guard case .template(let name, let json) = queued[1].content else { Issue.record("a template job was expected"); return }
        #expect(name == "ticket")
        let data = try TemplateData(json: Data(json.utf8), file: "job data")
        #expect(data["counter"] == .integer(2))
        #expect(data["heading"] == .string("Deli"))
        #expect(data["box"] == .string("till-3"))
        #expect(data["button"] == .string("take-a-number"))
        #expect(data["time"]?.printed?.wholeMatch(of: /\d\d:\d\d/) != nil)
        #expect(queued[2].content == queued[1].content)
        #expect(try await store.currentNumber(of: "deli") == 2)
    }

    @Test func aMissingChipIsLoggedWithTheSettingAndTheButtonStaysOff() async throws {
        let store = try KioskStore(path: storePath())
        let log = LogRecorder()
        let jobs = ButtonJobs(settings: try buttonSettings(chip: "missing"), gpio: FakeGPIO(),
                              intake: JobIntake(store: store, catalog: Self.catalog), box: "till-3", logger: log.logger, jobQueued: {})
        await jobs.run()   // returns at once: nothing to watch
        let line = try #require(log.all.first)
        #expect(line.hasPrefix("error button[1] \"take-a-number\" is not working:"), "\(line)")
        #expect(line.contains("gpiodetect") && line.contains("button[1].chip"), "\(line)")
        #expect(line.hasSuffix("The other triggers keep working."))
    }

    @Test func aReprintWithNothingPrintedYetSaysSo() async throws {
        let store = try KioskStore(path: storePath())
        let log = LogRecorder()
        let jobs = ButtonJobs(settings: try buttonSettings(), gpio: FakeGPIO(),
                              intake: JobIntake(store: store, catalog: Self.catalog), box: "till-3", logger: log.logger, jobQueued: {})
        await jobs.perform(.reprint(try Role("receipt")), press: ButtonPress(kind: .long, held: .seconds(3)))
        #expect(log.contains("the role receipt has printed nothing yet, so there is nothing to reprint"))
        #expect(try await store.jobs().isEmpty)
    }
}

struct LoggedError: Error, CustomStringConvertible {
    let lines: [String]
    var description: String { "the agent logged an error: " + lines.joined(separator: "\n") }
}
