import Foundation
public import Simulator

/// The lab the agent's benches run in: a PrinterLab with a receipt and a
/// label recording printer, the GPIO stand-in, and the kiosk site saved
/// against them. Stop it when done: its daemons outlive the bench otherwise.
public struct AgentLab: Sendable {
    /// The PrinterLab: its private avahi-daemon and printers.
    public let lab: PrinterLab
    /// The 80 mm receipt printer: the receipt and ticket roles.
    public let receipt: RunningPrinter
    /// The 4x6 label printer: the label role.
    public let label: RunningPrinter
    /// The kiosk saved against the two printers.
    public let site: AgentSite

    /// Starts the lab and prepares the site for the agent `kioskprint`
    /// (`KioskprintBinary`: the path a command's `--kioskprint` gave, or the
    /// release build of the root package when nil).
    public static func start(kioskprint: String? = nil) async throws -> AgentLab {
        let kioskprint = try kioskprint ?? KioskprintBinary.locate()
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

    /// Stops the printers and the lab's daemons.
    public func stop() { lab.stop() }
}
