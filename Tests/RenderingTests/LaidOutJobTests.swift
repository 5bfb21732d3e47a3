import Foundation
import PrintModel
import Testing
@testable import Rendering
@testable import Templates

/// A job checked and laid out at intake, then drawn from that layout, is
/// the same document the one-pass drawing makes: the printer cannot tell
/// which path drew it.
@Suite struct LaidOutJobTests {
    @Test(arguments: ["receipt", "shipping-label", "boarding-pass"])
    func drawingTheCheckedLayoutGivesTheSameBytes(_ name: String) throws {
        let source = try #require(BuiltInTemplates.all.first { $0.name == name })
        let json = Data((source.sampleData ?? "{}").utf8)
        let job = try TemplateJob(source: source, dataJSON: json, dataFile: "\(name).json")
        let media = BuiltInTemplateTests.media(job, dpi: 203)

        let (check, laidOut) = TemplateCheck.layOut(source, dataJSON: json, dataFile: "\(name).json", media: media)
        #expect(check.isClean, "\(check.errors)")
        var kept = try #require(laidOut)
        #expect(kept.cutLengths == check.cutLengths)
        let fromCheck = try kept.renderRaster(format: .pwg)
        #expect(kept.composition.pages.isEmpty, "each page's layout was let go as it was drawn")
        let onePass = try job.renderRaster(on: media, format: .pwg)
        #expect(fromCheck.data == onePass.data)
        #expect(fromCheck.cutLengths == onePass.cutLengths)
        #expect(!fromCheck.data.isEmpty)
    }

    @Test func aCheckWithErrorsKeepsNoLayout() throws {
        let source = try #require(BuiltInTemplates.all.first { $0.name == "receipt" })
        let media = MediaSelection.preview(for: try source.parse().page, width: nil, dpi: 203)
        let (check, laidOut) = TemplateCheck.layOut(source, dataJSON: Data(#"{"items": []}"#.utf8), dataFile: "bad.json",
                                                    media: media)
        #expect(!check.isClean)
        #expect(laidOut == nil)
    }
}
