import Foundation
import Simulator

/// The demo's WebPRNT step: a web POS on Star's SDK prints by POSTing
/// StarWebPrintTrader's XML to the printer. The receipt role answers as a
/// Star printer too; curl posts a coupon as the Trader would (text/xml, the
/// `<root>` escaped in `<Request>`), and the answer comes once it has
/// printed, with Star's code and automatic status.
enum DemoWebPrntPage {
    static let coupon: String = {
        let root = #"<root><initialization/><alignment position="center"/><text width="2" height="2">10%\x20OFF\x0a</text>"#
            + #"<text width="1" height="1">your\x20next\x20coffee\x0a</text><feed line="1"/>"#
            + #"<barcode symbology="Code128" width="width2" height="60" hri="true">CPN-0042</barcode><cutpaper feed="true"/></root>"#
        return #"<StarWebPrint xmlns="http://www.star-m.jp" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><Request>"#
            + root.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            + "</Request></StarWebPrint>"
    }()

    /// Posts the coupon; false (with a line saying why) when WebPRNT is not served.
    static func print(agent: DemoAgentProcess, folder: String) async throws -> Bool {
        guard let address = agent.loggedAddress(after: "WebPRNT (kitchen, receipt) at ") else {
            Swift.print("\nWebPRNT is not served (see the agent's log); the demo skips it.")
            return false
        }
        let file = folder + "/webprnt-coupon.xml"
        try Data(coupon.utf8).write(to: URL(fileURLWithPath: file))
        // Two roles answer as Star printers; the POS names the kitchen's, a Star TSP143III.
        let url = address + "?role=kitchen"
        Swift.print("\nA web POS on Star's WebPRNT SDK prints a coupon to the kitchen role's Star TSP143III, as StarWebPrintTrader posts it:")
        Swift.print("$ curl -H 'Content-Type: text/xml; charset=UTF-8' --data-binary @webprnt-coupon.xml '\(url)'")
        let posted = try Subprocess.run(try ProgramPath.find("curl"), ["-s", "-H", "Content-Type: text/xml; charset=UTF-8",
                                                                       "--data-binary", "@" + file, url], limit: .seconds(90))
        guard let answer = posted.output.firstMatch(of: /&lt;root&gt;.*&lt;\/root&gt;/).map({ String($0.output) }) else {
            throw demoFailure("the WebPRNT endpoint answered no <root>: \(posted.output.prefix(400))\(posted.errors.prefix(400))")
        }
        let readable = answer.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        Swift.print(readable)
        guard readable.contains("<success>true</success>") else { throw demoFailure("the WebPRNT coupon did not print: \(readable)") }
        Swift.print("The answer came once the coupon had printed; <status> is Star's automatic status, as the Trader's isPaperEnd reads it.")
        return true
    }
}
