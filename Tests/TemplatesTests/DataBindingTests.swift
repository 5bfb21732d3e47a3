import Foundation
import Testing
@testable import Templates

/// Parses a template, reads JSON data and binds them, as the agent will.
private func bound(_ template: String, _ json: String, builtIns: [String: TemplateData] = [:]) throws -> LayoutDocument {
    let document = try TemplateParser.parse(template, file: "t.xml")
    let data = try TemplateData(json: Data(json.utf8), file: "data.json")
    return try DataBinder.bind(document, data: data, builtIns: builtIns)
}

/// The diagnostics binding reports, as `file:line:column: message` lines.
private func problems(_ template: String, _ json: String) throws -> [String] {
    let document = try TemplateParser.parse(template, file: "t.xml")
    let data = try TemplateData(json: Data(json.utf8), file: "data.json")
    return DataBinder.bindReporting(document, data: data).diagnostics.map(\.description)
}

/// What a JSON text's reading reports, or nil if it reads.
private func jsonProblem(_ json: String) -> String? {
    do {
        _ = try TemplateData(json: Data(json.utf8), file: "data.json")
        return nil
    } catch {
        return error.description
    }
}

/// The printed content of each block, in order: texts, barcodes and images as
/// they are, a row as its columns joined with " | ".
private func contents(_ nodes: [LayoutNode]) -> [String] {
    nodes.flatMap { node -> [String] in
        switch node {
        case .text(let text): [text.content]
        case .row(let row): [row.columns.map(\.content).joined(separator: " | ")]
        case .barcode(let barcode): ["barcode " + barcode.data]
        case .image(let image): ["image " + image.source]
        case .box(let box): contents(box.children)
        case .section(let section): ["SECTION " + section.name]  // must never appear after binding
        case .rule: ["---"]
        case .space, .cut: []
        }
    }
}

@Suite struct DataBindingTests {
    let receipt = """
    <template>
      <header><text>Page {{page}} of {{pages}}</text></header>
      <text>{{store.name}}</text>
      {{#items}}
      <row><col>{{name}}</col><col>{{qty}} x {{price}} {{currency}}</col></row>
      {{/items}}
      <rule/>
      <row><col>TOTAL</col><col>{{total}} {{currency}}</col></row>
      <barcode type="code128">{{receipt.id}}</barcode>
    </template>
    """
    let receiptData = """
    {
      "store": { "name": "Corner Shop" },
      "currency": "EUR",
      "items": [
        { "name": "Coffee", "qty": 2, "price": "3.00" },
        { "name": "Bagel", "qty": 1, "price": "2.50" },
        { "name": "Juice", "qty": 1, "price": "1.80", "currency": "USD" }
      ],
      "total": "10.30",
      "receipt": { "id": "R-0042" }
    }
    """

    @Test func rowsRepeatPerItemAndInnerNamesFallBackToOuterValues() throws {
        let document = try bound(receipt, receiptData)
        #expect(contents(document.body) == [
            "Corner Shop",
            "Coffee | 2 x 3.00 EUR",
            "Bagel | 1 x 2.50 EUR",
            "Juice | 1 x 1.80 USD",  // the item's own currency wins over the outer one
            "---",
            "TOTAL | 10.30 EUR",
            "barcode R-0042",
        ])
        // The repeated rows keep the location of the row that was written.
        guard case .row(let third) = document.body[3] else { Issue.record("no third row: \(document.body)"); return }
        #expect(third.location == SourceLocation(file: "t.xml", line: 5, column: 3))
    }

    @Test func invertedSectionsShowWhenTheValueIsEmptyFalseOrMissing() throws {
        let template = """
        <template>
          {{^items}}<text>No items</text>{{/items}}
          {{^member}}<text>Join our club</text>{{/member}}
          {{^paid}}<text>UNPAID</text>{{/paid}}
          <text>{{^vip}}Regular{{/vip}}{{#vip}}VIP{{/vip}} customer</text>
        </template>
        """
        #expect(contents(try bound(template, #"{"items": [], "paid": false}"#).body)
                == ["No items", "Join our club", "UNPAID", "Regular customer"])
        #expect(contents(try bound(template, #"{"items": [1], "member": {"id": 7}, "paid": true, "vip": true}"#).body)
                == ["VIP customer"])
    }

    @Test func dottedNamesWalkIntoObjects() throws {
        let template = """
        <template>
          <text>{{store.address.city}}</text>
          {{#store.open}}<text>Open</text>{{/store.open}}
          {{#store.address}}<text>{{street}}, {{store.name}}</text>{{/store.address}}
        </template>
        """
        let json = #"{"store": {"name": "Corner", "open": true, "address": {"city": "Lyon", "street": "Rue Neuve"}}}"#
        #expect(contents(try bound(template, json).body) == ["Lyon", "Open", "Rue Neuve, Corner"])
    }

    @Test func theDotIsTheCurrentItemOfAListOfStrings() throws {
        let template = """
        <template>
          {{#tags}}<text>#{{.}}</text>{{/tags}}
          <text>{{#tags}}[{{.}}]{{/tags}}</text>
        </template>
        """
        #expect(contents(try bound(template, #"{"tags": ["new", "sale"]}"#).body) == ["#new", "#sale", "[new][sale]"])
    }

    @Test func valuesPrintAsTheJSONWroteThem() throws {
        let template = """
        <template>
          <text>{{yes}} {{no}} {{count}} {{weight}} {{big}} [{{nothing}}]</text>
          <text>{{#discount}}-{{discount}}{{/discount}}{{^zero}}none{{/zero}}{{#empty}}x{{/empty}}</text>
        </template>
        """
        let json = #"{"yes": true, "no": false, "count": 12, "weight": 2.5, "big": 1e21, "nothing": null,"#
            + #" "discount": 3, "zero": 0, "empty": ""}"#
        #expect(contents(try bound(template, json).body) == ["true false 12 2.5 1e+21 []", "-3none"])
        let data = try TemplateData(json: Data(json.utf8), file: "data.json")
        #expect(data["yes"] == .bool(true) && data["count"] == .integer(12) && data["weight"] == .number(2.5))
    }

    @Test func nothingIsEscaped() throws {
        let template = """
        <template>
          <text>{{name}} / {{{name}}} / {{&amp; name}} &amp; &lt;ok&gt;</text>
          <barcode type="qr">{{url}}</barcode>
        </template>
        """
        let json = #"{"name": "Fish & Chips <large> \"fresh\" it's", "url": "https://x.test/?a=1&b=<2>"}"#
        #expect(contents(try bound(template, json).body) == [
            #"Fish & Chips <large> "fresh" it's / Fish & Chips <large> "fresh" it's / Fish & Chips <large> "fresh" it's & <ok>"#,
            "barcode https://x.test/?a=1&b=<2>",
        ])
    }

    @Test func aMissingNameIsReportedAtItsBlockWithTheItem() throws {
        let template = """
        <template>
          <text>Receipt {{receipt.id}}</text>
          {{#items}}
          <row><col>{{name}}</col><col align="right">{{price}}</col></row>
          {{/items}}
          <text>Total {{total}}</text>
        </template>
        """
        let json = #"{"receipt": {"id": 1}, "items": [{"name": "A", "price": 1}, {"name": "B", "price": 2}, {"name": "C"}]}"#
        #expect(try problems(template, json) == [
            #"t.xml:4:27: the data has no "price" (used as {{price}} in <col>, in item 3 of "items"). "#
                + #"Add "price" to the job's data, or remove it from the template."#,
            #"t.xml:6:3: the data has no "total" (used as {{total}} in <text>). "#
                + #"Add "total" to the job's data, or remove it from the template."#,
        ])
        // bind throws the same, all at once.
        #expect(throws: TemplateErrors.self) { try bound(template, json) }
    }

    @Test func aNameMissingFromEveryItemIsReportedOnceAndDottedMissesNameTheWholePath() throws {
        let template = """
        <template>
          {{#items}}<text>{{sku}} {{{note}}}</text>{{/items}}
          <text>{{store.phone}}</text>
        </template>
        """
        let reported = try problems(template, #"{"items": [{}, {}, {}], "store": {"name": "x"}}"#)
        #expect(reported.count == 3)
        #expect(reported[0].hasPrefix(#"t.xml:2:13: the data has no "sku" (used as {{sku}} in <text>, in item 1 of "items")"#))
        #expect(reported[1].hasPrefix(#"t.xml:2:13: the data has no "note" (used as {{{note}}} in <text>, in item 1 of "items")"#))
        #expect(reported[2].hasPrefix(#"t.xml:3:3: the data has no "store.phone" (used as {{store.phone}} in <text>)"#))
    }

    @Test func sectionsOnMissingNamesAreNotErrors() throws {
        let template = """
        <template>
          {{#discounts}}<text>{{amount}}</text>{{/discounts}}
          <text>Total{{#discount}} (-{{discount}}){{/discount}}{{#coupon.code}} {{coupon.code}}{{/coupon.code}}</text>
        </template>
        """
        #expect(try problems(template, "{}") == [])
        #expect(contents(try bound(template, "{}").body) == ["Total"])
        #expect(contents(try bound(template, #"{"discount": "2.00"}"#).body) == ["Total (-2.00)"])
    }

    @Test func pageAndPagesStayForThePageRendererUnlessTheDataHasThem() throws {
        let template = """
        <template>
          <header><text>Page {{page}} of {{pages}}</text></header>
          <footer><text>{{ page }}/{{{pages}}}</text></footer>
          <text>x</text>
        </template>
        """
        let document = try bound(template, "{}")
        #expect(contents(document.header) == ["Page {{page}} of {{pages}}"])
        #expect(contents(document.footer) == ["{{page}}/{{pages}}"])
        #expect(contents(try bound(template, #"{"page": 3}"#).header) == ["Page 3 of {{pages}}"])
    }

    @Test func builtInsAreFoundBelowTheData() throws {
        let template = "<template><text>{{now}} {{box}} {{counter}}</text></template>"
        let builtIns: [String: TemplateData] = ["now": "2025-11-23 09:01", "box": "Kiosk 4", "counter": 17]
        #expect(contents(try bound(template, #"{"box": "Till 2"}"#, builtIns: builtIns).body) == ["2025-11-23 09:01 Till 2 17"])
    }

    @Test func cyrillicPassesThroughUnchanged() throws {
        let template = "<template><text>Магазин: {{store}}</text><text>{{greeting}}</text></template>"
        let json = #"{"store": "Ёлочка «Север»", "greeting": "\u041f\u0440\u0438\u0432\u0435\u0442 \ud83d\ude00"}"#
        #expect(contents(try bound(template, json).body) == ["Магазин: Ёлочка «Север»", "Привет 😀"])
    }

    @Test func aBrokenTagInsideOneTextIsReportedAtThatBlock() throws {
        let template = """
        <template>
          <text>ok</text>
          <text>{{#member}}Welcome back</text>
          <row><col>{{имя}}</col><col>{{upper(name)}}</col></row>
        </template>
        """
        let reported = try problems(template, #"{"member": true}"#)
        #expect(reported.count == 3)
        #expect(reported[0].hasPrefix("t.xml:3:3: {{#member}} is not closed: add {{/member}} in the same element"))
        #expect(reported[1].hasPrefix("t.xml:4:8: {{имя}}: names in tags may use only the letters A-Z"))
        #expect(reported[2].hasPrefix("t.xml:4:26: {{upper(name)}}: functions in tags are not supported"))
    }

    @Test func aListOrObjectUsedAsTextIsReported() throws {
        let reported = try problems("<template><text>{{store}}</text><text>{{items}}</text></template>",
                                    #"{"store": {"name": "x"}, "items": [1]}"#)
        #expect(reported == [
            "t.xml:1:11: {{store}} in <text> is an object, which has no single text. Name one of its values, like {{store.name}}.",
            "t.xml:1:33: {{items}} in <text> is a list, which has no single text. Go through it with {{#items}} ... {{/items}}.",
        ])
    }

    @Test func imageSourcesAndBoxesAreBoundAndNoSectionIsLeft() throws {
        let template = """
        <template>
          <box>{{#lines}}<text>{{.}}</text>{{/lines}}</box>
          <image src="{{logo}}.png"/>
        </template>
        """
        let document = try bound(template, #"{"lines": ["a", "b"], "logo": "north"}"#)
        #expect(contents(document.body) == ["a", "b", "image north.png"])
        guard case .box(let box) = document.body[0] else { Issue.record("no box"); return }
        #expect(box.children.count == 2)
    }
}

@Suite struct TemplateDataJSONTests {
    @Test func aMissingCommaOnLineThreeIsReportedThere() {
        let json = """
        {
          "store": "Corner Shop",
          "total": 12.50 "items": []
        }
        """
        #expect(jsonProblem(json) == #"data.json:3:18: the JSON is malformed: expected ',' or '}' after the value of "total", "#
                + #"found '"'. Check for a missing comma or quote near here."#)
    }

    @Test func columnsCountCharactersNotBytes() {
        let json = """
        {
          "a": 1,
          "имя": "Ёлка", "b": tru
        }
        """
        #expect(jsonProblem(json)?.hasPrefix("data.json:3:23: the JSON is malformed: expected true") == true)
    }

    @Test func otherMistakesSayWhatAndWhere() {
        #expect(jsonProblem(#"{"a": [1, 2,]}"#)?.hasPrefix("data.json:1:13: the JSON is malformed: a comma before ] is not allowed") == true)
        #expect(jsonProblem(#"{"a": 1,}"#)?.hasPrefix("data.json:1:9: the JSON is malformed: a comma before } is not allowed") == true)
        #expect(jsonProblem("{\n  \"a\": \"open\n}")?.hasPrefix("data.json:2:13: the JSON is malformed: a line break") == true)
        #expect(jsonProblem(#"{"a": 012}"#)?.hasPrefix("data.json:1:7: the JSON is malformed: a number cannot start with 0") == true)
        #expect(jsonProblem(#"{"a": 1"#)?.hasPrefix("data.json:1:8: the JSON is malformed: expected ',' or '}'") == true)
        #expect(jsonProblem("  ")?.hasPrefix("data.json:1:3: the data is empty.") == true)
        #expect(jsonProblem("{} []")?.hasPrefix("data.json:1:4: the JSON is malformed: there is more after the end") == true)
    }

    @Test func theTopLevelMustBeAnObject() {
        #expect(jsonProblem("\n  [1, 2]") == "data.json:2:3: the data must be a JSON object { ... }, not a list [ ... ]. "
                + #"Put the values under names, for example { "items": [ ... ] }."#)
        #expect(jsonProblem(#""text""#)?.hasPrefix("data.json:1:1: the data must be a JSON object { ... }, not a string.") == true)
    }

    @Test func valuesKeepTheirKinds() throws {
        let data = try TemplateData(json: Data(#"{"i": -12, "d": 12.0, "e": 1e2, "b": false, "n": null, "s": "\"q\"\n", "o": {"b": 1, "a": 2}}"#.utf8),
                                    file: "data.json")
        #expect(data == ["i": -12, "d": 12.0, "e": 100.0, "b": false, "n": nil, "s": "\"q\"\n", "o": ["a": 2, "b": 1]])
        #expect(data["d"]?.printed == "12.0" && data["i"]?.printed == "-12" && data["b"]?.printed == "false")
    }
}
