import Foundation
import Testing
import PrintModel

@Suite struct JobKindTests {
    @Test func aCommaSeparatedListParsesWithSpacesAndAnyCase() {
        #expect(JobKind.parseList("receipt,roll") == [.receipt, .roll])
        #expect(JobKind.parseList(" Receipt , ROLL,label ") == [.receipt, .roll, .label])
        #expect(JobKind.parseList("large-format,Postcard") == [.largeFormat, .postcard])
        #expect(JobKind.parseList("receipt,receipt") == [.receipt])
    }

    @Test func unknownWordsAndEmptyItemsAreSkipped() {
        #expect(JobKind.parseList("disc,receipt,vendor-thing") == [.receipt])
        #expect(JobKind.parseList("largeFormat,large format") == [], "only the IPP keyword names it")
        #expect(JobKind.parseList(",,label,") == [.label])
        #expect(JobKind.parseList("") == [])
        #expect(JobKind.parseList("disc") == [])
    }

    @Test func aListingIsSortedAndADashWhenEmpty() {
        #expect(Set<JobKind>([.roll, .receipt]).listing == "receipt, roll")
        #expect(Set<JobKind>([.largeFormat, .label, .document]).listing == "document, label, large-format")
        #expect(Set<JobKind>().listing == "-")
        #expect(JobKind.largeFormat.description == "large-format")
    }
}

@Suite struct RoleTests {
    @Test("Names of letters, digits, '-' and '_' are roles, trimmed and lowercased",
          arguments: [("receipt", "receipt"), ("boarding-pass", "boarding-pass"), ("bag_tag", "bag_tag"),
                      ("Till2", "till2"), ("2nd-receipt", "2nd-receipt"), ("RECEIPT", "receipt"),
                      ("  Coupon\t", "coupon")])
    func valid(name: String, expected: String) throws {
        let role = try Role(name)
        #expect(role.name == expected)
        #expect(role.description == expected)
    }

    @Test("Anything else is refused, naming what was given",
          arguments: ["", "   ", "front counter", "receipt!", "-receipt", "_receipt", "receipt/2", "receipt\n"])
    func invalid(name: String) {
        #expect(throws: RoleError.invalidName(name)) { try Role(name) }
    }

    @Test func sixtyFourCharactersAtMost() throws {
        let longest = String(repeating: "a", count: 64)
        #expect(try Role(longest).name == longest)
        #expect(throws: RoleError.invalidName(longest + "b")) { try Role(longest + "b") }
        #expect(try Role("  " + longest + "  ").name == longest, "surrounding spaces do not count")
    }

    @Test func theMessageNamesTheRefusedNameAndGivesExamples() {
        let message = RoleError.invalidName("front counter").description
        #expect(message.contains("'front counter'"))
        #expect(message.contains("boarding-pass"))
    }

    @Test func builtInRolesAcceptOnlyPrintersOfTheirKinds() throws {
        let receipt = try Role("Receipt")
        #expect(receipt.isBuiltIn)
        #expect(receipt.acceptedKinds == [.receipt, .roll])
        #expect(receipt.accepts([.receipt]))
        #expect(receipt.accepts([.roll]))
        #expect(receipt.accepts([.label, .roll]), "one matching kind is enough")
        #expect(!receipt.accepts([.label]))
        #expect(!receipt.accepts([.document, .envelope]))
        #expect(!receipt.accepts([]), "a printer of unknown kinds is not a receipt printer")

        let label = try Role("label")
        #expect(label.accepts([.label]))
        #expect(!label.accepts([.receipt, .roll]))
        #expect(try Role("bag-tag").accepts([.roll]))
        #expect(try Role("boarding-pass").accepts([.label]))
    }

    @Test func aRoleKioskPrintDoesNotKnowAcceptsAnyPrinter() throws {
        let kitchen = try Role("kitchen")
        #expect(!kitchen.isBuiltIn)
        #expect(kitchen.acceptedKinds.isEmpty)
        #expect(kitchen.accepts([.document]))
        #expect(kitchen.accepts([]))
    }

    @Test func assignmentsRankPrimaryThenBackups() throws {
        let printer = SavedPrinter(id: 1, uri: "ipp://a/ipp/print", uuid: nil, serviceName: nil,
                                   capabilities: PrinterCapabilities(name: "A"),
                                   addedAt: .distantPast, contactedAt: .distantPast)
        #expect(printer.name == "A")
        let primary = RoleAssignment(role: try Role("receipt"), position: 0, printer: printer)
        let backup = RoleAssignment(role: try Role("receipt"), position: 2, printer: printer)
        #expect(primary.isPrimary && primary.rank == "primary")
        #expect(!backup.isPrimary && backup.rank == "backup 2")
    }
}

@Suite struct KindInferenceTests {
    func roll(_ millimetres: Double) -> RollMedia {
        RollMedia(width: .millimetres(millimetres), cutLengths: .millimetres(25) ... .millimetres(3000))
    }

    func sheet(_ name: String?, _ width: Double = 100, _ length: Double = 150, type: String? = nil) -> SheetMedia {
        SheetMedia(name: name, width: .millimetres(width), length: .millimetres(length), type: type)
    }

    @Test func aRollUpTo112MillimetresIsAReceiptRoll() {
        #expect(PrinterCapabilities.inferKinds(rolls: [roll(80)], sheets: []) == [.roll, .receipt])
        #expect(PrinterCapabilities.inferKinds(rolls: [roll(58)], sheets: []) == [.roll, .receipt])
        #expect(PrinterCapabilities.inferKinds(rolls: [roll(112)], sheets: []) == [.roll, .receipt])
        #expect(PrinterCapabilities.inferKinds(rolls: [roll(112.01)], sheets: []) == [.roll])
        #expect(PrinterCapabilities.inferKinds(rolls: [roll(210)], sheets: []) == [.roll])
        #expect(PrinterCapabilities.inferKinds(rolls: [roll(210), roll(80)], sheets: []) == [.roll, .receipt])
    }

    @Test func labelSheetsByTypeOrName() {
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet("na_index-4x6_4x6in", type: "labels")]) == [.label])
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet("oe_4x6-label_4x6in")]) == [.label])
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet(nil, type: "Labels-Continuous")]) == [.label])
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet("na_index-4x6_4x6in")]) == [.document],
                "a 4x6 sheet that nothing calls a label is a document")
    }

    @Test("Envelope names", arguments: ["na_number-10_4.125x9.5in", "iso_dl_110x220mm", "iso_c5_162x229mm",
                                        "na_monarch_3.875x7.5in", "na_10x13-envelope_10x13in", "ISO_DL_110x220mm"])
    func envelopes(name: String) {
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet(name)]) == [.envelope])
    }

    @Test func ordinarySheetsMakeADocumentPrinter() {
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet("iso_a4_210x297mm", 210, 297)]) == [.document])
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet(nil, 215.9, 279.4, type: "stationery")]) == [.document])
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet("iso_a4_210x297mm", 210, 297),
                                                                   sheet("iso_dl_110x220mm", 110, 220)]) == [.document, .envelope])
    }

    @Test func postcardsPhotosAndLargeFormat() {
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet("jpn_hagaki_100x148mm")]) == [.postcard])
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet("na_5x7_5x7in", type: "photographic-glossy")]) == [.photo])
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet("iso_a1_594x841mm", 594, 841)]) == [.largeFormat])
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: [sheet(nil, 440, 600)]) == [.document], "440 mm is not large")
    }

    @Test func nothingKnownInfersNothing() {
        #expect(PrinterCapabilities.inferKinds(rolls: [], sheets: []).isEmpty)
    }

    @Test func capabilitiesSurviveAJSONRoundTrip() throws {
        let capabilities = PrinterCapabilities(
            name: "Counter", kinds: [.receipt, .roll], kindsSource: .inferred,
            stateReasons: [StateReason(ippKeyword: "media-low-report")],
            resolutions: Resolutions(pwgRaster: [Resolution(203)], preferred: Resolution(203)),
            rolls: [roll(80)], sheets: [sheet("na_index-4x6_4x6in", type: "labels")],
            trims: [.afterPages, .trim], copies: 1...99)
        let decoded = try JSONDecoder().decode(PrinterCapabilities.self, from: try JSONEncoder().encode(capabilities))
        #expect(decoded == capabilities)
        #expect(capabilities.hasRoll)
        #expect(!PrinterCapabilities(name: "Office").hasRoll)
    }
}
