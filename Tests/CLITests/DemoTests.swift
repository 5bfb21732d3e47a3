import Foundation
import Simulator
import Testing

/// `kioskprint demo`, the README's main command, as a user runs it: it
/// saves the simulated printers, runs the real agent on its demo
/// configuration, and leaves a PNG of each job a printer received. (CI runs
/// it again from the release build.)
@Suite(.timeLimit(.minutes(3))) struct DemoTests {
    @Test func theDemoRunsTheAgentAndShowsWhatEachPrinterReceived() async throws {
        let previews = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-demo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: previews) }
        let demo = try await offloaded { try CommandRunner().run(["demo", "--previews", previews], limit: .seconds(120)) }
        #expect(demo.status == 0, "\(demo.output)\(demo.errors)")

        let output = demo.output
        #expect(output.contains("Error: KioskPrint Label 4x6 is a label printer"), "the label printer refused as the receipt printer")
        #expect(output.contains("kioskprint agent ready: 2 folders, 1 button, 1 light, box demo-till"), "\(output)")
        #expect(output.contains("R-2026-004712.json was not printed:"), "the malformed file's .error is shown")
        #expect(output.contains("GPIO line 27 (simulated): on, driven 0 -> 1."))
        for (name, role) in [("R-2026-004711", "receipt"), ("Parcel WEB-88213", "label"),
                             ("queue-ticket 1 (demo-till)", "receipt"), ("queue-ticket 2 (demo-till)", "receipt")] {
            #expect(output.contains("\"\(name)\" (\(role)) completed on"), "the agent logged \(name) completed")
        }
        #expect(output.contains("The agent exited with status 0"))
        #expect(output.contains("80 x 173.55 mm"), "the receipt's cut length reached the printer")
        #expect(output.contains("101.6 x 152.4 mm"), "the label's size reached the printer")

        let pngs = try FileManager.default.contentsOfDirectory(atPath: previews + "/received").sorted()
        #expect(pngs == ["kioskprint-label-4x6-1.png", "kioskprint-receipt-80mm-1.png",
                         "kioskprint-receipt-80mm-2.png", "kioskprint-receipt-80mm-3.png"])
        for png in pngs {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: previews + "/received/" + png))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(png) is a PNG")
        }
    }
}
