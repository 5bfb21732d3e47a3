import Foundation
import Testing

/// `kioskprint templates check`, as an integrator runs it on a file.
@Suite struct TemplateCheckTests {
    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-template-\(UUID().uuidString).xml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aGoodTemplateIsOKAndABadOneIsReportedByLineAndColumn() throws {
        let good = try write("<template>\n  <text bold=\"true\">{{store}}</text>\n</template>")
        let bad = try write("<template>\n  <text>ok</text>\n  <barcod type=\"qr\">1</barcod>\n</template>")
        let result = try CommandRunner().run(["templates", "check", good, bad])
        #expect(result.status == 1)
        #expect(result.output.contains("\(good): OK"))
        #expect(result.output.contains("\(bad):3:3: unknown element <barcod>. Did you mean <barcode>?"))
    }

    @Test func aMissingFileIsNamed() throws {
        let result = try CommandRunner().run(["templates", "check", "/nonexistent/receipt.xml"])
        #expect(result.status == 1)
        #expect(result.output.contains("The template file /nonexistent/receipt.xml does not exist. Check the path."))
    }
}
