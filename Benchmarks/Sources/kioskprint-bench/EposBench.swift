import BenchSupport
import PosMarkup
import Foundation
import PrintModel
import Simulator

/// `kioskprint-bench raw-listen`'s second section: an ePOS-Print receipt
/// (text, a QR code, a cut, as a web POS sends it), and the same receipt as
/// Star WebPRNT, posted to the agent and answered once printed, beside the
/// same receipt sent as KioskPrint
/// template data (`POST /v1/jobs`, the same drawing as a template) and
/// followed with `GET /v1/jobs/ID` every 2 ms until completed. Both print
/// on the same ESC/POS simulator, alternating.
enum EposBench {
    static let receipt = """
        <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>\
        <epos-print xmlns="http://www.epson-pos.com/schemas/2011/03/epos-print">\
        <text align="center"/><text dw="true" dh="true">KIOSKPRINT&#10;</text><text dw="false" dh="false"/>\
        <text align="left">Espresso              2.40&#10;Croissant             1.90&#10;Orange juice          3.10&#10;</text>\
        <text em="true">TOTAL                 7.40&#10;</text><text>Order ORDER&#10;</text><feed line="1"/>\
        <symbol type="qrcode_model_2" level="level_m" width="5" align="center">https://example.com/r/4711</symbol>\
        <cut type="feed"/></epos-print></s:Body></s:Envelope>
        """

    /// The same receipt as Star's Builder writes it, in the Trader's envelope.
    static let webprntReceipt: String = {
        let root = #"<root><alignment position="center"/><text width="2" height="2">KIOSKPRINT\x0a</text><text width="1" height="1"/>"#
            + #"<alignment position="left"/><text>Espresso\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x202.40\x0a"#
            + #"Croissant\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x201.90\x0aOrange\x20juice\x20\x20\x20\x20\x20"#
            + #"\x20\x20\x20\x20\x203.10\x0a</text><text emphasis="true">TOTAL\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20\x20"#
            + #"\x20\x20\x20\x20\x207.40\x0a</text><text emphasis="false">Order\x20ORDER\x0a</text><feed line="1"/>"#
            + #"<alignment position="center"/><qrcode model="model2" level="level_m" cell="5">https://example.com/r/4711</qrcode>"#
            + #"<cutpaper feed="true"/></root>"#
        return #"<StarWebPrint xmlns="http://www.star-m.jp" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><Request>"#
            + root.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            + "</Request></StarWebPrint>"
    }()

    /// One WebPRNT request, posted as the Trader posts it and answered once printed; throws unless it printed.
    static func postWebPrnt(port: Int, order: Int) throws -> Duration {
        try timedPost(port: port, path: "/StarWebPRNT/SendMessage", contentType: "text/xml; charset=UTF-8", what: "WebPRNT",
                      body: webprntReceipt.replacingOccurrences(of: "ORDER", with: String(order)), printed: "&lt;success&gt;true&lt;")
    }

    /// The template the same request draws as, written where the site's agent finds templates.
    static func writeTemplate(into folder: URL) throws -> String {
        let request = try EposRequest.parse(Data(receipt.utf8))
        try Data(ReceiptDrawing.source(request.commands, name: "epos-same").text.replacingOccurrences(of: "ORDER", with: "{{order}}").utf8).write(to: folder.appendingPathComponent("epos-same.xml"))
        return "epos-same"
    }

    /// One ePOS-Print request, posted and answered; throws unless it printed. Each
    /// carries its own order number: the same body within a minute is the same job.
    static func post(port: Int, order: Int) throws -> Duration {
        try timedPost(port: port, path: "/cgi-bin/epos/service.cgi?devid=local_printer", contentType: "text/plain", what: "ePOS-Print",
                      body: receipt.replacingOccurrences(of: "ORDER", with: String(order)), printed: #"success="true""#)
    }

    /// POSTs `body`, timed from the request to its answer; throws unless the answer holds `printed`.
    static func timedPost(port: Int, path: String, contentType: String, what: String, body: String, printed: String) throws -> Duration {
        let client = try LoopbackHTTP(port: port)
        let started = ContinuousClock.now
        let answer = try client.send("POST", path, headers: ["Content-Type": contentType], body: Array(body.utf8))
        let elapsed = ContinuousClock.now - started
        guard answer.status == 200, String(decoding: answer.body, as: UTF8.self).contains(printed) else {
            throw BenchError("the \(what) request did not print: \(answer.status) \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        }
        return elapsed
    }

    /// The same receipt as template data: POST /v1/jobs, then GET /v1/jobs/ID every 2 ms until completed.
    static func postTemplate(port: Int, secret: String, template: String, order: Int) async throws -> Duration {
        let client = try LoopbackHTTP(port: port)
        let headers = ["Authorization": "Bearer \(secret)", "Content-Type": "application/json"]
        let started = ContinuousClock.now
        let posted = try client.send("POST", "/v1/jobs", headers: headers, body: Array(#"{"template":"\#(template)","role":"till","data":{"order":"\#(order)"}}"#.utf8))
        guard posted.status == 201, let object = try JSONSerialization.jsonObject(with: Data(posted.body)) as? [String: Any],
              let id = object["id"] as? Int else {
            throw BenchError("POST /v1/jobs answered \(posted.status): \(String(decoding: posted.body.prefix(300), as: UTF8.self))")
        }
        while true {
            let read = try client.send("GET", "/v1/jobs/\(id)", headers: headers)
            let state = (try? JSONSerialization.jsonObject(with: Data(read.body)) as? [String: Any])?["state"] as? String
            if state == "completed" { return ContinuousClock.now - started }
            guard state != "failed", ContinuousClock.now - started < .seconds(30) else { throw BenchError("job \(id) ended \(state ?? "?")") }
            try await Task.sleep(for: .milliseconds(2))  // the client's own poll, as a POS polls
        }
    }
}
