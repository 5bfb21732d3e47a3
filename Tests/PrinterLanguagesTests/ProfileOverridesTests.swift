import Testing
import PrintModel
import PrinterLanguages

/// `--width`, `--printable`, `--dpi` and `--language` on top of the catalog,
/// or instead of it for a model it does not know; and what is refused.
@Suite struct ProfileOverridesTests {
    @Test func noOverridesIsTheCatalogProfile() throws {
        let profile = try ModelCatalog.profile(model: "TM-T88VI")
        #expect(profile == ModelCatalog.entries.first { $0.name == "TM-T88VI" }!.profile)
        #expect(try ModelCatalog.profile(deviceModel: "TM-T88VI-iHUB") == profile)
    }

    @Test("A documented paper width brings its printable dots",
          arguments: [("TM-T88VI", 58.0, 360), ("TM-T20III", 58.0, 420), ("TM-T20III", 80.0, 576), ("SRP-350III", 58.0, 360)])
    func documentedWidth(model: String, millimetres: Double, dots: Int) throws {
        let profile = try ModelCatalog.profile(model: model, overrides: ProfileOverrides(width: .millimetres(millimetres)))
        #expect(profile.paperWidth == .millimetres(millimetres))
        #expect(profile.printableDots == dots)
        #expect(profile.source.hasSuffix("Overridden by the administrator: --width \(Length.millimetres(millimetres)).") )
    }

    @Test func anUndocumentedWidthNeedsItsPrintableDots() throws {
        let error = #expect(throws: ProfileError.self) {
            try ModelCatalog.profile(model: "TM-T88VI", overrides: ProfileOverrides(width: .millimetres(60)))
        }
        #expect(error?.description == "The Epson TM-T88VI's printable width is not known for these settings: its maker documents "
                    + "80 mm or 58 mm paper, not 60 mm. Give the dots it prints across with --printable "
                    + "(its manual lists them as \"print width\" in dots).")
        let profile = try ModelCatalog.profile(model: "TM-T88VI",
                                               overrides: ProfileOverrides(width: .millimetres(60), printableDots: 400))
        #expect((profile.paperWidth, profile.printableDots, profile.dpi) == (.millimetres(60), 400, 180))
    }

    @Test func anotherResolutionIsAnotherHead() throws {
        #expect(throws: ProfileError.needsPrintable(model: "Epson TM-T88VI", reason: "it prints at 180 dpi, not 203")) {
            try ModelCatalog.profile(model: "TM-T88VI", overrides: ProfileOverrides(dpi: 203))
        }
        let profile = try ModelCatalog.profile(model: "TM-T88VI", overrides: ProfileOverrides(printableDots: 576, dpi: 203))
        #expect((profile.dpi, profile.printableDots) == (203, 576))
        // A Zebra at the other resolution is simply the other entry.
        #expect(try ModelCatalog.profile(model: "ZD420", overrides: ProfileOverrides(dpi: 300)).model == "ZD420-300dpi")
    }

    @Test func labelStockPrintsEdgeToEdgeUpToTheHead() throws {
        let two = try ModelCatalog.profile(model: "ZD420-203dpi", overrides: ProfileOverrides(width: .inches(2)))
        #expect(two.printableDots == 406, "2 in at 8 dots/mm: 50.8 mm -> 406 dots")
        let wide = try ModelCatalog.profile(model: "ZD420-203dpi", overrides: ProfileOverrides(width: .millimetres(110)))
        #expect(wide.printableDots == 832, "the head's 832 dots, on stock wider than the head")
    }

    @Test func theLanguageAndCutterCanBeOverridden() throws {
        let profile = try ModelCatalog.profile(model: "ZT230-203dpi", overrides: ProfileOverrides(cutter: .full))
        #expect(profile.cutter == .full && profile.language == .zpl)
        let star = try ModelCatalog.profile(model: "TSP654", overrides: ProfileOverrides(language: .zpl))
        #expect(star.language == .zpl && star.kind == .receipt)
    }

    @Test func refusals() {
        #expect(throws: ProfileError.printableWiderThanHead(dots: 600, model: "Epson TM-T88VI", headDots: 512)) {
            try ModelCatalog.profile(model: "TM-T88VI", overrides: ProfileOverrides(printableDots: 600))
        }
        let paper = #expect(throws: ProfileError.self) {
            try ModelCatalog.profile(overrides: ProfileOverrides(width: .millimetres(58), printableDots: 576, dpi: 203,
                                                                 language: .escpos))
        }
        #expect(paper == .printableWiderThanPaper(dots: 576, width: .millimetres(58), dpi: 203, paperDots: 464))
        #expect(paper?.description == "576 printable dots do not fit on 58 mm paper: at 203 dpi it is only 464 dots wide. "
                    + "Check --printable, --width and --dpi against the printer's manual.")
        #expect(throws: ProfileError.notPositive("--dpi", "0")) {
            try ModelCatalog.profile(model: "TM-T88VI", overrides: ProfileOverrides(dpi: 0))
        }
    }

    @Test func anUnknownModelIsDescribedByTheOverrides() throws {
        let receipt = try ModelCatalog.profile(model: "Acme 3000", overrides: ProfileOverrides(
            width: .millimetres(80), printableDots: 576, dpi: 203, language: .escpos))
        #expect(receipt.model == "Acme 3000" && receipt.make.isEmpty)
        #expect((receipt.kind, receipt.printableDots, receipt.cutter, receipt.mediaTracking) == (.receipt, 576, .partial, .continuous))
        #expect(receipt.drawerPins == [.pin2, .pin5] && !receipt.processIDResponse)
        #expect(receipt.source.contains("--width 80 mm, --printable 576, --dpi 203, --language escpos"))

        let label = try ModelCatalog.profile(overrides: ProfileOverrides(width: .inches(4), dpi: 203, language: .zpl))
        #expect((label.kind, label.printableDots, label.cutter, label.mediaTracking) == (.label, 812, .none, .gap))
        #expect(label.model == "raw ZPL II printer" && label.drawerPins.isEmpty)
        #expect(label.maximumCut == .millimetres(3000), "3 m: shorter than ^LL's 32000 dots at 203 dpi")

        let mdl = try ModelCatalog.profile(deviceModel: "POS-80C", overrides: ProfileOverrides(
            width: .millimetres(80), printableDots: 576, dpi: 203, language: .escpos))
        #expect(mdl.model == "POS-80C")
    }

    @Test func anUnknownModelWithoutADescriptionSaysWhatIsMissing() {
        let bare = #expect(throws: ProfileError.self) { try ModelCatalog.profile(deviceModel: "POS-80C") }
        #expect(bare == .missing(["--language", "--width", "--dpi"], model: "POS-80C"))
        #expect(bare?.description == "The printer model \"POS-80C\" is not in KioskPrint's catalog, so KioskPrint needs the "
                    + "printer described: add --language, --width, --dpi (for example --language escpos --width 80mm "
                    + "--printable 576 --dpi 203).")
        #expect(throws: ProfileError.missing(["--printable"], model: nil)) {
            try ModelCatalog.profile(overrides: ProfileOverrides(width: .millimetres(80), dpi: 203, language: .escpos))
        }
        // A typed name the catalog does not know, without a full description: the catalog's error, with its suggestions.
        let typed = #expect(throws: ProfileError.self) {
            try ModelCatalog.profile(model: "TM-T88X", overrides: ProfileOverrides(width: .millimetres(80)))
        }
        #expect(typed == .catalog(.unknownModel("TM-T88X", nearest: ["TM-T88V", "TM-T88VI"])))
        #expect(typed?.description.contains("Did you mean TM-T88V or TM-T88VI?") == true)
    }

    @Test func languagesByTheWordsPeopleUse() {
        for word in ["escpos", "ESC/POS", "esc-pos", "Esc Pos", "pos"] { #expect(PrinterLanguage(userWord: word) == .escpos, "\(word)") }
        for word in ["zpl", "ZPL2", "ZPL II", "zpl-ii"] { #expect(PrinterLanguage(userWord: word) == .zpl, "\(word)") }
        for word in ["pcl", "", "star", "zp"] { #expect(PrinterLanguage(userWord: word) == nil, "\(word)") }
        #expect(PrinterLanguage.escpos.mimeType == "application/vnd.escpos")
        #expect(PrinterLanguage.zpl.mimeType == "application/vnd.zebra-zpl")
        #expect(ProfileOverrides().isEmpty && !ProfileOverrides(dpi: 203).isEmpty)
    }
}
