import Testing
import PrintModel

@Suite struct PageSizeParsingTests {
    @Test func sizesAsPeopleWriteThem() throws {
        #expect(try PageSize(parsing: "4x6in") == .inches(4, 6))
        #expect(try PageSize(parsing: "8x3.25in") == PageSize(width: .inches(8), length: .inches(3.25)))
        #expect(try PageSize(parsing: "80x120mm") == .millimetres(80, 120))
        #expect(try PageSize(parsing: "80mm x 120mm") == .millimetres(80, 120))
        #expect(try PageSize(parsing: "8 x 3.25 in") == PageSize(width: .inches(8), length: .inches(3.25)))
    }

    @Test func aSizeWithoutUnitOrSecondNumberIsRefusedWithTheForms() {
        for text in ["4x6", "4in", "x6in", "axbmm"] {
            #expect(throws: MeasureParseError.pageSize(text)) { try PageSize(parsing: text) }
        }
        #expect(MeasureParseError.pageSize("4x6").description.contains("4x6in, 80x120mm"))
    }
}
