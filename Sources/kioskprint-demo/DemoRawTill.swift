import Foundation
import PrintModel
import Simulator
import Store

/// The demo's port 9100 step: a till that prints ESC/POS to its printer's
/// raw port, pointed at the agent instead. The coupon role is served raw
/// (`raw-listen`); python-escpos (PyPI), a client nobody here wrote, asks the
/// printer's status and prints a line, a QR code and a cut through it, and
/// the coupon printer receives those bytes as python-escpos wrote them.
/// Without python-escpos, a plain socket sends the same kind of bytes.
enum DemoRawTill {
    /// Prints through the raw listener; false (with a line saying why) when it is not listening.
    static func print(agent: DemoAgentProcess, store: KioskStore, coupon: DemoCouponPrinter, folder: String) async throws -> Bool {
        let marker = "Raw printer \(DemoCouponPrinter.role) listens on 127.0.0.1:"
        guard let line = agent.logText.split(separator: "\n").first(where: { $0.contains(marker) }),
              let port = line.components(separatedBy: marker).last.flatMap({ Int($0.prefix { $0.isNumber }) }) else {
            Swift.print("\nThe coupon role's raw listener is not listening (see the agent's log); the demo skips port 9100.")
            return false
        }
        Swift.print("\nA till prints ESC/POS to the coupon role's raw port, as it would to its printer's port 9100:")
        let before = coupon.simulator.bytesReceived
        let sent: [UInt8]
        do {
            let result = try PythonEscpos.run(port: port, folder: folder)
            Swift.print("$ python3 -c 'from escpos.printer import Network; p = Network(\"127.0.0.1\", port=\(port)); ...'")
            Swift.print("  is_online(): \(result.online.map(String.init) ?? "-"), paper_status(): \(result.paper.map(String.init) ?? "-") "
                + "(answered by the agent); then a line of text, a raster image, a QR code and a cut, \(result.sent.count) bytes.")
            guard result.online == true, result.paper == 2 else {
                throw demoFailure("the agent answered python-escpos's status asks wrong: \(result).")
            }
            sent = result.sent
        } catch let error as PythonEscposError {
            Swift.print("  python-escpos is not here (\(error.detail.prefix(120))...); a plain socket sends the ESC/POS instead.")
            sent = Array("KioskPrint demo, raw port\n".utf8) + [0x1D, 0x56, 0x42, 0x00]
            let till = try RawClient(port: port)
            try await till.send(sent)
            till.finishSending()
            _ = try await till.readUntilClosed()
        }
        try await agent.wait(for: "the till's job to end", within: .seconds(60)) {
            try await store.jobs(includeFinished: true).contains { $0.name.contains("raw job from") && $0.state.isTerminal }
        }
        let received = coupon.simulator.record.received
        guard received.count > before, received[before...].firstRange(of: sent) != nil else {
            throw demoFailure("\(DemoCouponPrinter.name) did not receive the \(sent.count) bytes the till sent, unchanged.")
        }
        Swift.print("\(DemoCouponPrinter.name) received the till's \(sent.count) bytes unchanged, through the queue.")
        return true
    }
}
