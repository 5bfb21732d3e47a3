import Foundation
import Testing
import Simulator

/// The lab itself: its printers answer on loopback and can be broken on purpose.
@Suite struct LabTests {
    @Test func standardPrintersListen() async throws {
        let lab = try await PrinterLab.shared()
        #expect(lab.standardPrinters.map(\.preset) == SimulatedPrinter.standardSet)
        // Only the shared ones: printers other tests started are theirs to stop.
        for printer in lab.standardPrinters {
            #expect(printer.process.isRunning, "\(printer.name) is not running: \(printer.process.logTail())")
        }
        #expect(ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"] == lab.busAddress)
    }
}
