import Foundation
import PrintModel
import Spooler
import Testing
@testable import Agent

/// The gauges read at scrape time: a printer is judged by what the spooler
/// saw while printing when it has seen it, else by what was saved at its
/// last check; every role with printers has a queue depth.
@Suite struct AgentMetricsTests {
    static func assignment(_ role: String, position: Int = 0, state: PrinterState = .idle, reasons: [String] = []) throws -> RoleAssignment {
        let capabilities = PrinterCapabilities(name: "Till \(position)", state: state,
                                               stateReasons: reasons.map { StateReason(keyword: $0) })
        return RoleAssignment(role: try Role(role), position: position,
                              printer: SavedPrinter(id: Int64(position + 1), uri: "ipp://till-\(position)/ipp/print", uuid: nil,
                                                    serviceName: nil, capabilities: capabilities, addedAt: Date(), contactedAt: Date()))
    }

    @Test func aSavedPrinterIsJudgedByItsLastCheckUntilThePrinterIsSeenPrinting() throws {
        let emptyAtCheck = try Self.assignment("receipt", reasons: ["media-empty"]).printer.capabilities
        #expect(PrinterStatus(emptyAtCheck, seen: nil) == PrinterStatus(up: false, state: .idle, paperLow: false))
        let lowAtCheck = try Self.assignment("receipt", reasons: ["media-low"]).printer.capabilities
        #expect(PrinterStatus(lowAtCheck, seen: nil) == PrinterStatus(up: true, state: .idle, paperLow: true))
        let unreachableAtCheck = try Self.assignment("receipt", state: .unreachable).printer.capabilities
        #expect(PrinterStatus(unreachableAtCheck, seen: nil).up == false)

        // Seen since: it printed (refilled), its paper warning went away, then it became unreachable.
        let role = try Role("receipt")
        let printed = PrinterCondition(role: role, uri: "u", trouble: nil, warnings: [])
        #expect(PrinterStatus(emptyAtCheck, seen: printed) == PrinterStatus(up: true, state: .idle, paperLow: false))
        #expect(PrinterStatus(lowAtCheck, seen: printed).paperLow == false)
        let warned = PrinterCondition(role: role, uri: "u", trouble: nil, warnings: ["media-near-end"])
        #expect(PrinterStatus(emptyAtCheck, seen: warned).paperLow == true)
        let gone = PrinterCondition(role: role, uri: "u", trouble: ["unreachable"], warnings: nil)
        #expect(PrinterStatus(lowAtCheck, seen: gone) == PrinterStatus(up: false, state: .unreachable, paperLow: true))
        let jammed = PrinterCondition(role: role, uri: "u", trouble: ["media-jam"], warnings: [])
        #expect(PrinterStatus(emptyAtCheck, seen: jammed) == PrinterStatus(up: false, state: .stopped, paperLow: false))
    }

    @Test func everyRoleWithPrintersHasAQueueDepthAndEachPrinterOneState() throws {
        let primary = try Self.assignment("receipt")
        let backup = try Self.assignment("receipt", position: 1, state: .stopped, reasons: ["cover-open"])
        let series = AgentMetrics.scrapeSeries(counts: ["label": 2], assignments: [primary, backup],
                                               conditions: [PrinterCondition(role: try Role("receipt"), uri: primary.printer.uri,
                                                                             trouble: ["media-empty"], warnings: nil)])
        func value(_ name: String, _ labels: KeyValuePairs<String, String>) -> Double? {
            series[AgentMetrics.Series(name, labels)]
        }
        #expect(value(MetricCatalog.queueDepth, ["role": "receipt"]) == 0)
        #expect(value(MetricCatalog.queueDepth, ["role": "label"]) == 2)
        #expect(value(MetricCatalog.printerUp, ["role": "receipt", "printer": "Till 0", "rank": "primary"]) == 0)
        #expect(value(MetricCatalog.printerUp, ["role": "receipt", "printer": "Till 1", "rank": "backup-1"]) == 0)
        let states = series.filter { $0.key.name == MetricCatalog.printerState && $0.key.labels.contains("Till 1") }
        #expect(states.count == 4)
        #expect(states.filter { $0.value == 1 }.map(\.key.labels.last) == ["stopped"])
        #expect(value(MetricCatalog.printerState, ["role": "receipt", "printer": "Till 0", "rank": "primary", "state": "stopped"]) == 1)
    }
}
