@testable import Agent
import Foundation
import IPP
import PrintModel
import Spooler
import Templates
import Testing
import Triggers

/// The JSON envelope a folder without a template takes, and the light's reading of printer states.
@Suite struct JobEnvelopeTests {
    func envelope(_ json: String) throws(FileRefusal) -> JobEnvelope {
        try JobEnvelope(json: Data(json.utf8), file: "bp.json")
    }

    func refusal(_ json: String) -> String {
        do {
            _ = try envelope(json)
            return ""
        } catch { return error.reason }
    }

    @Test func aCompleteEnvelope() throws {
        let read = try envelope(#"{"template": "boarding-pass", "role": "boarding-pass", "name": "BP SK1234", "copies": 2, "data": {"seat": "12A"}}"#)
        #expect(read == JobEnvelope(template: "boarding-pass", role: try Role("boarding-pass"), name: "BP SK1234", copies: 2,
                                    dataJSON: #"{"seat":"12A"}"#))
        let minimal = try envelope(#"{"template": "bag-tag", "data": {}}"#)
        #expect(minimal.role == nil && minimal.name == nil && minimal.copies == 1)
    }

    @Test func eachMistakeIsNamed() {
        #expect(refusal(#"{"template": "bag-tag", "data": {}, "printer": "x"}"#).hasPrefix(#"it has "printer", which a job file does not take."#))
        #expect(refusal(#"{"data": {}}"#).hasPrefix("it does not say what to print"))
        #expect(refusal(#"{"template": "bag-tag"}"#) == #"it has no "data" object with the values for the template bag-tag."#)
        #expect(refusal(#"{"template": "bag-tag", "data": {}, "copies": 0}"#) == #""copies" must be a whole number from 1 to 99."#)
        #expect(refusal(#"{"template": "bag-tag", "data": {}, "role": "No Such!"}"#).hasPrefix(#""role": 'No Such!' is not a usable role name"#))
        #expect(refusal(#"{"template": "#).hasPrefix("it is not valid JSON: bp.json:1:"))
    }

    /// Issue 14: a dropped file must not point the agent at any template file on the machine.
    @Test func aTemplateIsNamedFromTheCatalogNeverByPath() {
        for path in ["/etc/passwd", "../secret/receipt.xml", "receipt.xml", "/tmp/evil.xml", "templates/receipt"] {
            let reason = refusal(#"{"template": "\#(path)", "data": {}}"#)
            #expect(reason.hasPrefix(#""template": "\#(path)" is a file path, and a job file names a template by its name only"#),
                    "\(path): \(reason)")
        }
        #expect(refusal(#"{"template": "receipt", "data": {}}"#) == "")
    }

    /// Issue 14: a NUL cut the marker off the name at the printer, so crash recovery sent the job again.
    @Test func aJobNameWithAControlCharacterOrTooLongIsRefused() {
        #expect(refusal(#"{"template": "receipt", "data": {}, "name": "BP\u0000SK1234"}"#)
            .hasPrefix(#""name": the job name has a control character (U+0000) at character 3"#))
        let long = String(repeating: "x", count: 239)
        #expect(refusal(#"{"template": "receipt", "data": {}, "name": "\#(long)"}"#)
            .hasPrefix(#""name": the job name is 239 bytes long, more than the 200 bytes"#))
    }

    /// Issue 14: a job file's "data" may nest as deep as a data file's, and no deeper.
    @Test func dataInAJobFileHasTheSameNestingLimitAsADataFile() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        }
        let limit = TemplateLimits.maximumDataNesting
        let read = try envelope(#"{"template": "receipt", "data": \#(nested(limit))}"#)
        guard case .template(_, let dataJSON) = read.content else { Issue.record("no template: \(read)"); return }
        #expect(throws: Never.self) { try TemplateData(json: Data(dataJSON.utf8), file: "data") }
        #expect(refusal(#"{"template": "receipt", "data": \#(nested(limit + 1))}"#)
            .contains("the values are nested more than 201 deep"))
    }

    @Test func printerLanguageBytesAndTheDrawer() throws {
        let zpl = try envelope(#"{"role": "label", "name": "Parcel 4711", "zpl": "^XA^FDParcel^FS^XZ", "drawer": false}"#)
        #expect(zpl == JobEnvelope(content: .printerLanguage(.zpl, Data("^XA^FDParcel^FS^XZ".utf8)), role: try Role("label"),
                                   name: "Parcel 4711", copies: 1))
        // ESC @, "A", LF: base64 "G0BBCg==".
        let escpos = try envelope(#"{"escpos-base64": "G0BBCg==", "drawer": true, "copies": 2}"#)
        #expect(escpos.content == .printerLanguage(.escpos, Data([0x1B, 0x40, 0x41, 0x0A])))
        #expect(escpos.opensDrawer && escpos.copies == 2 && escpos.role == nil)
        #expect(try envelope(#"{"template": "receipt", "data": {}, "drawer": true}"#).opensDrawer)
    }

    @Test func eachPassthroughMistakeIsNamed() {
        #expect(refusal(#"{"template": "bag-tag", "data": {}, "zpl": "^XA^XZ"}"#)
            == #"it has "template" and "zpl": a job file prints one of them; keep one."#)
        #expect(refusal(#"{"zpl": "^XA^XZ", "data": {}}"#).hasPrefix(#"it has "data" beside "zpl""#))
        #expect(refusal(#"{"zpl": ""}"#).hasPrefix(#""zpl" must be the label's ZPL as text"#))
        #expect(refusal(#"{"escpos-base64": "***"}"#).hasPrefix(#""escpos-base64" is not base64 text"#))
        #expect(refusal(#"{"zpl": "^XA^XZ", "drawer": "yes"}"#).hasPrefix(#""drawer" must be true"#))
    }

    @Test func lightsShowReadyOnAndTroubleBlinking() {
        #expect(PrinterLight.pattern(for: .ready) == .on)
        // Paper near its end still prints, but someone should load paper: it blinks.
        #expect(PrinterLight.pattern(for: Readiness(warnings: ["media-low"])) == .blinking)
        #expect(PrinterLight.pattern(for: .trouble(PrinterProblem(text: "out", reasons: ["media-empty"]))) == .blinking)
        #expect(PrinterLight.pattern(for: .trouble(PrinterProblem(text: "Host is down", reasons: ["unreachable"]))) == .off)
        // Another certificate than the pinned one: the printer is there but not trusted, and a person must act.
        #expect(PrinterLight.pattern(for: .trouble(PrinterProblem(text: "changed", reasons: ["certificate-pin-mismatch"])))
                == .blinking)
    }
}
