import Testing
import PrintModel
@testable import Templates

@Suite struct TemplateParserTests {
    let receipt = """
    <template page="roll" min-length="40mm">
      <header><text align="center" size="8">Page {{page}}</text></header>
      <text align="center" bold="true" size="14">{{store.name}}</text>
      <rule style="dashed"/>
      {{#items}}
      <row><col width="1fr">{{name}}</col><col width="12mm" align="right">{{qty}}</col><col align="right">{{price}}</col></row>
      {{/items}}
      <space height="3mm"/>
      <text>Thank you<br/>for shopping</text>
      <barcode type="qr" module="4">{{receipt.id}}</barcode>
      <cut/>
      <text>Coupon: 10% off</text>
    </template>
    """

    @Test func aReceiptBecomesItsLayoutTree() throws {
        let document = try TemplateParser.parse(receipt, file: "receipt.xml")
        #expect(document.page.size == .roll)
        #expect(document.page.cut == .afterContent(minimum: .millimetres(40)))
        #expect(document.header.count == 1)
        guard case .text(let title) = document.body[0] else { Issue.record("no title: \(document.body)"); return }
        #expect(title.content == "{{store.name}}")
        #expect(title.style.bold == true && title.style.size == 14 && title.style.align == .center)
        #expect(title.location == SourceLocation(file: "receipt.xml", line: 3, column: 3))
        guard case .rule(let rule) = document.body[1] else { Issue.record("no rule"); return }
        #expect(rule.style == .dashed)
        guard case .section(let items) = document.body[2] else { Issue.record("no section: \(document.body[2])"); return }
        #expect(items.name == "items" && !items.inverted)
        guard case .row(let row) = items.children.first else { Issue.record("no row in the section"); return }
        #expect(row.columns.map(\.width) == [.fraction(1), .fixed(.millimetres(12)), .auto])
        #expect(row.columns.map(\.content) == ["{{name}}", "{{qty}}", "{{price}}"])
        #expect(row.columns[1].style.align == .right)
        guard case .text(let thanks) = document.body[4] else { Issue.record("no thanks"); return }
        #expect(thanks.content == "Thank you\nfor shopping")
        guard case .barcode(let code) = document.body[5] else { Issue.record("no barcode"); return }
        #expect(code.symbology == .qr && code.module == 4 && code.data == "{{receipt.id}}")
        #expect(document.body[6] == .cut(SourceLocation(file: "receipt.xml", line: 11, column: 3)))
    }

    @Test func fixedPagesAndTheirCut() throws {
        let pass = try TemplateParser.parse(#"<template page="8x3.25in" orientation="landscape"><text>x</text></template>"#,
                                            file: "pass.xml")
        #expect(pass.page.size == .fixed(width: .inches(8), length: .inches(3.25)))
        #expect(pass.page.orientation == .landscape)
        #expect(pass.page.cut == .sheet)
        let ticket = try TemplateParser.parse(#"<template cut="120mm"><text>x</text></template>"#, file: "t.xml")
        #expect(ticket.page.cut == .fixed(.millimetres(120)))
        #expect(ticket.page.cutStyle == nil && !ticket.opensDrawer)
    }

    @Test func aSaleReceiptAsksForThePartialCutAndTheDrawer() throws {
        let sale = try TemplateParser.parse(#"<template cut-style="partial" drawer="open"><text>x</text></template>"#,
                                            file: "sale.xml")
        #expect(sale.page.cutStyle == .partial && sale.opensDrawer)
        #expect(throws: TemplateErrors.self) {
            try TemplateParser.parse(#"<template cut-style="half" drawer="yes"><text>x</text></template>"#, file: "bad.xml")
        }
        do {
            _ = try TemplateParser.parse(#"<template cut-style="half" drawer="yes"><text>x</text></template>"#, file: "bad.xml")
        } catch {
            #expect("\(error)".contains(#"cut-style="half" on <template> is not one of: partial, full."#), "\(error)")
            #expect("\(error)".contains(#"drawer="yes" on <template> is not one of: open."#), "\(error)")
        }
    }

    @Test func anUnknownElementIsNamedWithItsPlaceAndTheNearestName() {
        let text = "<template>\n  <text>ok</text>\n    <barcod type=\"qr\">1</barcod>\n</template>"
        #expect {
            try TemplateParser.parse(text, file: "bad.xml")
        } throws: { error in
            let message = "\(error)"
            return message.contains("bad.xml:3:5: unknown element <barcod>.") && message.contains("Did you mean <barcode>?")
        }
    }

    @Test func unknownAttributesAndBadValuesAreAllReportedAtOnce() throws {
        let text = """
        <template>
          <text colour="red" size="huge">a</text>
          <rule style="wavy"/>
          <barcode type="ean14">123</barcode>
        </template>
        """
        do {
            _ = try TemplateParser.parse(text, file: "t.xml")
            Issue.record("accepted a broken template")
        } catch {
            let messages = error.diagnostics.map(\.description)
            #expect(messages.contains { $0.hasPrefix("t.xml:2:3: <text> has no attribute colour.") })
            #expect(messages.contains { $0.hasPrefix("t.xml:2:3: size=\"huge\" on <text> should be a number") })
            #expect(messages.contains { $0.hasPrefix("t.xml:3:3: style=\"wavy\" on <rule> is not one of: solid, dashed, double") })
            #expect(messages.contains { $0.hasPrefix("t.xml:4:3: type=\"ean14\" on <barcode> is not one of:") })
            #expect(messages.count == 4)
        }
    }

    @Test func textOutsideATextElementAndUnbalancedSectionsAreRefused() {
        #expect {
            try TemplateParser.parse("<template>\n  <text>a</text>\n  Hello\n  <rule/>\n</template>", file: "t.xml")
        } throws: { "\($0)" == "t.xml:3:3: text \"Hello\" must be inside <text> (or a <col> of a <row>)." }
        #expect {
            try TemplateParser.parse("<template>{{#items}}<text>a</text></template>", file: "t.xml")
        } throws: { "\($0)".contains("{{#items}} is not closed") }
        #expect {
            try TemplateParser.parse("<template><text>a</text>{{/items}}</template>", file: "t.xml")
        } throws: { "\($0)".contains("{{/items}} closes a section that is not open here") }
    }

    @Test func malformedXMLSaysWhereAndWhat() {
        #expect {
            try TemplateParser.parse("<template>\n  <text>a</txt>\n</template>", file: "m.xml")
        } throws: { error in
            "\(error)".hasPrefix("m.xml:2:") && "\(error)".contains("wrong end tag")
        }
        #expect {
            try TemplateParser.parse("<receipt><text>a</text></receipt>", file: "r.xml")
        } throws: { "\($0)".contains("unknown element <receipt>") }
    }

    /// Found by the template fuzzer: every XML error past the first leaked
    /// its strings in FoundationXML, so a mangled file is read to its first.
    @Test func aFileThatIsNotWellFormedIsReadToItsFirstXMLErrorOnly() {
        let lines = (1...50).map { "  <text>fish & chips \($0)</text>" }
        #expect {
            try TemplateParser.parse("<template>\n" + lines.joined(separator: "\n") + "\n</template>", file: "m.xml")
        } throws: { error in
            let diagnostics = (error as? TemplateErrors)?.diagnostics ?? []
            return diagnostics.count == 1 && "\(diagnostics[0])".hasPrefix("m.xml:2:")
                && "\(diagnostics[0])".contains("a '<' or '&' that is not markup")
        }
    }

    /// Found by the template fuzzer: a parse stopped from libxml2's error
    /// about the encoding (UCS-4, guessed from the NUL bytes) crashed in
    /// xmlParseChunk; it is stopped at the next element or text instead.
    @Test func aFileThatStartsWithNULBytesIsRefusedWithoutACrash() {
        #expect {
            try TemplateParser.parse("\u{0}\u{0}\u{0}<template/>", file: "n.xml")
        } throws: { error in
            let diagnostics = (error as? TemplateErrors)?.diagnostics ?? []
            return diagnostics.count == 1 && "\(diagnostics[0])".hasPrefix("n.xml:1:")
        }
    }

    @Test func elementsOutOfPlaceAreRefused() {
        #expect {
            try TemplateParser.parse("<template><row><text>a</text></row></template>", file: "t.xml")
        } throws: { "\($0)".contains("<text> cannot stand inside <row>") }
    }
}

@Suite struct TemplateLengthTests {
    @Test func rulesAndSpacesTakePointsAndMillimetres() throws {
        let document = try TemplateParser.parse(
            #"<template><rule thickness="1pt"/><space height="3mm"/><rule thickness="2 pt"/></template>"#, file: "t.xml")
        #expect(document.body == [
            .rule(Rule(style: .solid, thickness: Length(hundredthsOfMillimetre: 35),
                       location: SourceLocation(file: "t.xml", line: 1, column: 11))),
            .space(.millimetres(3), SourceLocation(file: "t.xml", line: 1, column: 34)),
            .rule(Rule(style: .solid, thickness: Length(hundredthsOfMillimetre: 71),
                       location: SourceLocation(file: "t.xml", line: 1, column: 55))),
        ])
    }

    @Test func aLengthWithoutAUnitSaysWhichUnitsThereAre() {
        #expect {
            try TemplateParser.parse(#"<template><space height="3"/></template>"#, file: "t.xml")
        } throws: { "\($0)".contains("height=\"3\" on <space>") && "\($0)".contains("1pt") }
    }
}
