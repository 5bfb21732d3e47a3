import Foundation
import Simulator

/// The lab the agent's benches run in: a PrinterLab with a receipt and a
/// label recording printer, the GPIO stand-in, and the kiosk site saved
/// against them. Stop it when done: its daemons outlive the bench otherwise.
struct AgentLab: Sendable {
    let lab: PrinterLab
    let receipt: RunningPrinter
    let label: RunningPrinter
    let site: AgentSite

    static func start() async throws -> AgentLab {
        let kioskprint = try AgentSite.locateKioskprint()
        progress("starting a lab with a receipt and a label recording printer, and the GPIO stand-in")
        let lab = try await PrinterLab.start([], nameTag: PrinterLab.processTag)
        do {
            let receipt = try await lab.startPrinter(.recording(.receipt80mm))
            let label = try await lab.startPrinter(.recording(.label4x6))
            let gpio = try await GPIOStandIn()
            let site = try await AgentSite.prepare(in: lab.directory.appendingPathComponent("agent"),
                                                   kioskprint: kioskprint, receiptPrinter: receipt,
                                                   labelPrinter: label, gpio: gpio)
            return AgentLab(lab: lab, receipt: receipt, label: label, site: site)
        } catch {
            lab.stop()
            throw error
        }
    }

    func stop() { lab.stop() }
}
