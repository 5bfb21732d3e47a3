import Foundation
import PrintModel
@testable import Rendering
import Templates
import Testing

/// Issue 14: a job's paper is bounded from its cut plan, before anything is drawn.
@Suite struct RenderLimitTests {
    func check(_ template: String, data: String = "{}") -> TemplateCheck {
        let source = TemplateSource(name: "runaway", origin: .builtIn, text: template, file: "runaway.xml")
        return TemplateCheck.run(source, dataJSON: Data(data.utf8), dataFile: "runaway.json",
                                 media: .preview(width: .millimetres(80), dpi: 203))
    }

    @Test func aCutRepeatedOverALongListIsRefusedBeforeDrawing() {
        let items = "[" + (1...1_001).map(String.init).joined(separator: ",") + "]"
        let result = check("<template>{{#items}}<text>{{.}}</text><cut/>{{/items}}</template>", data: #"{"items": \#(items)}"#)
        #expect(result.errors == ["runaway.xml: The content would need 1001 pieces of paper, more than the 1000 a job may have. "
            + "Shorten the content or split it into several jobs."], "\(result.errors)")
        #expect(result.cutLengths.isEmpty)
    }

    @Test func moreThanTheJobsPaperIsRefusedBeforeDrawing() {
        let result = check("<template>" + String(repeating: #"<space height="2000mm"/>"#, count: 101) + "</template>")
        #expect(result.errors.count == 1, "\(result.errors)")
        #expect(result.errors.first?.hasPrefix("runaway.xml: The content would use at least ") == true, "\(result.errors)")
        #expect(result.errors.first?.contains("of paper, more than the 200 m a job may use. Nothing was drawn.") == true,
                "\(result.errors)")
    }

    @Test func theLimitsLeaveRoomForTheLargestRealJobs() {
        // 4 x 6 in at 300 dpi, the largest label image.
        #expect(1_200 * 1_800 <= RenderLimits.maximumImagePixels)
        #expect(1_200 * 1_800 * PNGDecoder.bytesPerPixel(bitDepth: 8) <= RenderLimits.maximumImageDecodedBytes)
        #expect(RenderLimits.maximumImagePixels * PNGDecoder.bytesPerPixel(bitDepth: 8) <= RenderLimits.maximumImageDecodedBytes)
    }
}
