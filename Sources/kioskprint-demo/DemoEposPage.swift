import Foundation
import Simulator
import Store

/// The demo's ePOS-Print step: a web POS on Epson's SDK (or Odoo's Epson
/// printer) prints by POSTing ePOS-Print XML to the printer. The receipt
/// role answers as `local_printer`; curl posts a receipt (text, a QR code,
/// a cut) as Odoo would, and the answer comes once it has printed.
enum DemoEposPage {
    static let receipt = """
        <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>\
        <epos-print xmlns="http://www.epson-pos.com/schemas/2011/03/epos-print">\
        <text align="center"/><text dw="true" dh="true">KIOSKPRINT DEMO&#10;</text><text dw="false" dh="false"/>\
        <text align="left">Espresso              2.40&#10;Croissant             1.90&#10;</text>\
        <text em="true">TOTAL                 4.30&#10;</text><feed line="1"/>\
        <symbol type="qrcode_model_2" level="level_m" width="5" align="center">https://example.com/r/demo</symbol>\
        <cut type="feed"/></epos-print></s:Body></s:Envelope>
        """

    /// Posts the receipt; false (with a line saying why) when ePOS-Print is not served.
    static func print(agent: DemoAgentProcess, store: KioskStore, folder: String) async throws -> Bool {
        guard let url = agent.loggedAddress(after: "ePOS-Print (devid local_printer) at ") else {
            Swift.print("\nePOS-Print is not served (see the agent's log); the demo skips it.")
            return false
        }
        let file = folder + "/epos-receipt.xml"
        try Data(receipt.utf8).write(to: URL(fileURLWithPath: file))
        Swift.print("\nA web POS prints with Epson's ePOS-Print XML to the receipt role, as Odoo does:")
        Swift.print("$ curl -H 'Content-Type: text/plain' --data-binary @epos-receipt.xml '\(url)?devid=local_printer'")
        let posted = try Subprocess.run(try ProgramPath.find("curl"), ["-s", "-H", "Content-Type: text/plain;charset=UTF-8",
                                                                       "--data-binary", "@" + file, url + "?devid=local_printer"],
                                        limit: .seconds(90))
        guard let response = posted.output.firstMatch(of: /<response[^>]*\/>/).map({ String($0.output) }) else {
            throw demoFailure("the ePOS-Print endpoint answered no <response>: \(posted.output.prefix(400))\(posted.errors.prefix(400))")
        }
        Swift.print(response)
        guard response.contains(#"success="true""#) else {
            throw demoFailure("the ePOS-Print receipt did not print: \(response)")
        }
        Swift.print("The answer came once the receipt had printed; the job is in the queue's history as any other.")
        return true
    }
}
