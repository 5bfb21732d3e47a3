@testable import Agent
import Foundation
import IPP
import PrintModel
import Spooler
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
        #expect(refusal(#"{"data": {}}"#).hasPrefix("it does not say which template to print"))
        #expect(refusal(#"{"template": "bag-tag"}"#) == #"it has no "data" object with the values for the template bag-tag."#)
        #expect(refusal(#"{"template": "bag-tag", "data": {}, "copies": 0}"#) == #""copies" must be a whole number from 1 to 99."#)
        #expect(refusal(#"{"template": "bag-tag", "data": {}, "role": "No Such!"}"#).hasPrefix(#""role": 'No Such!' is not a usable role name"#))
        #expect(refusal(#"{"template": "#).hasPrefix("it is not valid JSON: bp.json:1:"))
    }

    @Test func lightsShowReadyOnAndTroubleBlinking() {
        #expect(PrinterLight.pattern(for: .ready) == .on)
        // Paper near its end still prints, but someone should load paper: it blinks.
        #expect(PrinterLight.pattern(for: Readiness(warnings: ["media-low"])) == .blinking)
        #expect(PrinterLight.pattern(for: .trouble(PrinterProblem(text: "out", reasons: ["media-empty"]))) == .blinking)
        #expect(PrinterLight.pattern(for: .trouble(PrinterProblem(text: "Host is down", reasons: ["unreachable"]))) == .off)
    }
}
