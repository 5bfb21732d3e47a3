import Foundation
import PrintModel
import Simulator
@_spi(Testing) import Store
import Templates
import Testing

extension AgentEndToEnd {
    /// The queue-ticket deployment from kiosk-config/, run as shipped (only the
    /// light is asked more often): a button press through the libgpiod stand-in
    /// prints a numbered ticket, the number survives a restart, and the light
    /// follows the printer into out-of-paper and back.
    @Suite(.timeLimit(.minutes(4))) struct AgentTriggerTests {
        /// The deployment copied into the harness's folder.
        func queueTicketDeployment(_ agentFolder: AgentHarness) throws {
            let deployment = kioskConfigFolder + "/queue-ticket"
            try FileManager.default.copyItem(atPath: deployment + "/templates", toPath: agentFolder.folder + "/templates")
            let shipped = try String(contentsOfFile: deployment + "/kioskprint.toml", encoding: .utf8)
            #expect(shipped.contains(#"check-every = "2s""#))
            try agentFolder.writeConfiguration(shipped.replacingOccurrences(of: #"check-every = "2s""#, with: #"check-every = "200ms""#))
        }

        @Test func aButtonPressPrintsTheNextNumberAndTheNumberSurvivesARestart() async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("Ticket Printer \(try Loopback.freePort())")))
            defer { printer.stop() }
            let gpio = try await GPIOStandIn()
            let agentFolder = try AgentHarness(lab: lab, extraEnvironment: gpio.environment)
            try queueTicketDeployment(agentFolder)
            try await agentFolder.assign(printer, to: "ticket")

            var agent = try await agentFolder.start()
            try await gpio.press(line: 17, heldFor: .milliseconds(300))
            let first = try await printer.receivedJobs(atLeast: 1)
            #expect(first[0].jobName.hasPrefix("queue-ticket 1 (deli-dispenser-1)"), "\(first[0].jobName)")
            await agentFolder.stop(agent)

            agent = try await agentFolder.start()
            defer { agent.stop() }
            try await gpio.press(line: 17, heldFor: .milliseconds(300))
            let both = try await printer.receivedJobs(atLeast: 2)
            #expect(both[1].jobName.hasPrefix("queue-ticket 2 (deli-dispenser-1)"), "\(both[1].jobName)")

            let store = try KioskStore(path: agentFolder.database)
            #expect(try await store.currentNumber(of: "deli") == 2)
            let tickets = try await store.jobs(includeFinished: true)
            guard case .template(let name, let json) = tickets.last?.content else { Issue.record("no ticket job"); return }
            let data = try TemplateData(json: Data(json.utf8), file: "ticket")
            #expect(name == "queue-ticket")
            #expect(data["counter"] == .integer(2) && data["department"] == .string("Deli counter"))
            // The stand-in saw the line requested as the configuration says.
            #expect(gpio.request(line: 17)?.activeLow == true && gpio.request(line: 17)?.bias == "pull-up")
        }

        @Test func theLightFollowsThePrinterIntoOutOfPaperAndBack() async throws {
            let lab = try await PrinterLab.shared()
            let printer = try await lab.startPrinter(.recording(SimulatedPrinter.receipt80mm.named("Light Printer \(try Loopback.freePort())")))
            defer { printer.stop() }
            let gpio = try await GPIOStandIn()
            let agentFolder = try AgentHarness(lab: lab, extraEnvironment: gpio.environment)
            try queueTicketDeployment(agentFolder)
            try await agentFolder.assign(printer, to: "ticket")
            let agent = try await agentFolder.start()
            defer { agent.stop() }

            try await pollUntil("the light to come on", within: .seconds(20)) { gpio.value(line: 27) == 1 }
            #expect(agentFolder.logText.contains("ticket light on:"))

            try await printer.setMediaLevel(0)
            try await pollUntil("the light to blink", within: .seconds(20)) {
                agentFolder.logText.contains("ticket light blinking:")
            }
            let blinkStart = gpio.changes(line: 27).count
            try await pollUntil("four blinks", within: .seconds(20)) { gpio.changes(line: 27).count >= blinkStart + 4 }
            let blinks = Array(gpio.changes(line: 27).dropFirst(blinkStart - 1))
            #expect(zip(blinks, blinks.dropFirst()).allSatisfy { $0 != $1 }, "\(blinks)")
            #expect(agentFolder.logText.contains("media-empty"))

            try await printer.setMediaLevel(250)
            try await pollUntil("the light to be steady again", within: .seconds(20)) {
                agentFolder.logText.components(separatedBy: "ticket light on:").count == 3
            }
            try await pollUntil("the line to be lit", within: .seconds(5)) { gpio.value(line: 27) == 1 }

            await agentFolder.stop(agent)
            #expect(gpio.value(line: 27) == 0, "a stopped agent leaves its lights off")
        }
    }
}
