import Testing
import PrintModel
import PrinterLanguages

/// Finding a model by the IEEE 1284 `MDL:` a printer reports and by the name
/// an administrator types; what the catalog says about each.
@Suite struct ModelCatalogTests {
    @Test("1284 MDL values, as printers report them", arguments: [
        ("TM-T88V", "TM-T88V"),
        ("TM-T88VI", "TM-T88VI"),
        ("TM-T88VI-iHUB", "TM-T88VI"),
        ("TM-T88V-i", "TM-T88V"),
        ("TM-T88VII", "TM-T88VII"),
        ("EPSON TM-T88V", "TM-T88V"),
        ("TM-T20III", "TM-T20III"),
        ("TM-m30II-H", "TM-m30II"),
        ("TM-m30III", "TM-m30III"),
        ("TSP143IIIU", "TSP143"),
        ("TSP143 (STR_T-001)", "TSP143"),
        ("TSP143IV (STR-001)", "TSP143IV"),
        ("TSP654II", "TSP654"),
        ("TSP654 (STR_T-001)", "TSP654"),
        ("TSP743II (STR_T-001)", "TSP743II"),
        ("TSP847II (STR_T-001)", "TSP847II"),
        ("MCP31 (STR-001)", "mC-Print3"),
        ("MCP21 (STR-001)", "mC-Print2"),
        ("POP10 (STR-001)", "mPOP"),
        ("CT-S310II", "CT-S310II"),
        ("SRP-350plusIII", "SRP-350III"),
        ("VKP80 III", "VKP80III"),
        ("ZTC ZD420-203dpi ZPL", "ZD420-203dpi"),
        ("ZTC ZD420-300dpi ZPL", "ZD420-300dpi"),
        ("ZTC ZD620-300dpi ZPL", "ZD620-300dpi"),
        ("ZTC ZT230-200dpi ZPL", "ZT230-203dpi"),
    ])
    func deviceModel(mdl: String, expected: String) {
        #expect(ModelCatalog.entry(deviceModel: mdl)?.name == expected)
    }

    @Test("Not a model in the catalog, or not one without its resolution",
          arguments: ["LaserJet 4000", "TM-T88", "TM-T88X", "ZTC ZD420 ZPL", "", "XTM-T88VI", "TSP1430"])
    func deviceModelNotFound(mdl: String) {
        #expect(ModelCatalog.entry(deviceModel: mdl) == nil)
    }

    @Test func aResolutionFromTheCallerPicksTheZebra() {
        #expect(ModelCatalog.entry(deviceModel: "ZTC ZD420 ZPL", dpi: 300)?.name == "ZD420-300dpi")
        #expect(ModelCatalog.entry(deviceModel: "ZTC ZD420 ZPL", dpi: 200)?.name == "ZD420-203dpi")
        #expect(ModelCatalog.entry(deviceModel: "ZTC ZD420 ZPL", dpi: 600) == nil)
    }

    @Test("Names as people type them", arguments: [
        ("tm-t88vi", "TM-T88VI"), ("TM T88 VI", "TM-T88VI"), ("tmt88v", "TM-T88V"), ("tsp100", "TSP143"),
        ("zd420 300dpi", "ZD420-300dpi"), ("ZD620-203", "ZD620-203dpi"), ("zt230 300", "ZT230-300dpi"),
        ("ct-s310ii", "CT-S310II"), ("vkp80iii", "VKP80III"),
    ])
    func named(name: String, expected: String) throws {
        #expect(try ModelCatalog.entry(named: name).name == expected)
    }

    @Test func anUnknownNameSuggestsTheNearOnes() {
        let error = #expect(throws: CatalogError.self) { try ModelCatalog.entry(named: "TM-T88X") }
        guard case .unknownModel(let name, let nearest)? = error else { Issue.record("not an unknown model: \(String(describing: error))"); return }
        #expect(name == "TM-T88X")
        #expect(nearest == ["TM-T88V", "TM-T88VI"])
        #expect(error?.description == "There is no printer model \"TM-T88X\" in KioskPrint's catalog. "
                    + "Did you mean TM-T88V or TM-T88VI? Give a known model with --model, "
                    + "or describe the printer with --language, --width, --printable and --dpi.")
    }

    @Test func aNameNothingIsNearListsTheCatalog() {
        let error = #expect(throws: CatalogError.self) { try ModelCatalog.entry(named: "Acme Ticketmaster") }
        #expect(error == .unknownModel("Acme Ticketmaster", nearest: []))
        #expect(error?.description.contains("The catalog knows: TM-T88V, TM-T88VI, TM-T88VII, TM-T20III") == true)
        #expect(error?.description.contains("ZT230-300dpi. Give a known model") == true)
    }

    @Test func aZebraWithoutItsResolutionAsksForIt() throws {
        let error = #expect(throws: CatalogError.self) { try ModelCatalog.entry(named: "ZD420") }
        #expect(error == .ambiguousModel("ZD420", candidates: ["ZD420-203dpi", "ZD420-300dpi"]))
        #expect(error?.description == "\"ZD420\" names several catalog models: ZD420-203dpi, ZD420-300dpi. "
                    + "Name one of them with --model, or give the resolution with --dpi.")
        #expect(try ModelCatalog.entry(named: "ZD420", dpi: 300).name == "ZD420-300dpi")
    }

    @Test func everyModelTheIssueNamesIsThereWithItsSource() {
        let names = Set(ModelCatalog.entries.map(\.name))
        for model in ["TM-T88V", "TM-T88VI", "TM-T88VII", "TM-T20III", "TM-m30II", "TM-m30III", "TSP143", "TSP143IV", "TSP654", "TSP743II", "TSP847II", "mC-Print3", "mC-Print2", "mPOP",
                      "CT-S310II", "SRP-350III", "VKP80III", "ZD420-203dpi", "ZD420-300dpi", "ZD620-203dpi",
                      "ZD620-300dpi", "ZT230-203dpi", "ZT230-300dpi"] {
            #expect(names.contains(model), "\(model)")
        }
        #expect(names.count == ModelCatalog.entries.count, "no two entries share a name")
        for entry in ModelCatalog.entries {
            #expect(entry.profile.source.count > 40, "\(entry.name) names its source")
            #expect(entry.profile.printableDots <= entry.headDots, "\(entry.name)")
            #expect(entry.paperOptions.contains { $0.width == entry.profile.paperWidth && $0.printableDots == entry.profile.printableDots })
            #expect(entry.profile.minimumCut < entry.profile.maximumCut, "\(entry.name)")
            // Every model finds itself by its own name and each alias, through the 1284 path too.
            for name in entry.names where entry.profile.language != .zpl {
                #expect(ModelCatalog.entry(deviceModel: name)?.name == entry.name, "\(name)")
            }
            #expect(ModelCatalog.entry(deviceModel: entry.name)?.name == entry.name, "\(entry.name)")
        }
    }

    /// Star's printers in the language Star's SDKs drive them with: a
    /// TSP143IIIU saved by its 1284 MDL gets Star Graphic mode, not `GS v 0`
    /// it cannot print.
    @Test("Star models and their languages", arguments: [
        ("TSP143 (STR_T-001)", PrinterLanguage.starGraphic, 576), ("TSP100", .starGraphic, 576),
        ("TSP143IV (STR-001)", .starPRNT, 576), ("MCP31 (STR-001)", .starPRNT, 576), ("MCP20 (STR-001)", .starPRNT, 384),
        ("POP10 (STR-001)", .starPRNT, 384), ("TSP654 (STR_T-001)", .starLine, 576), ("TSP743II (STR_T-001)", .starLine, 576),
        ("TSP847II (STR_T-001)", .starLine, 832),
    ])
    func starLanguages(mdl: String, language: PrinterLanguage, dots: Int) throws {
        let profile = try #require(ModelCatalog.entry(deviceModel: mdl)).profile
        #expect(profile.make == "Star" && profile.language == language && profile.printableDots == dots && profile.dpi == 203)
        #expect(profile.kind == .receipt && profile.drawerPins == [.pin2, .pin5] && !profile.processIDResponse)
        #expect(PrinterLanguage(deviceIDCommand: "STAR") == nil, "CMD:STAR names no one language: the MDL decides")
    }

    @Test func theFiguresTheIssueQuotes() throws {
        let t88vi = try ModelCatalog.entry(named: "TM-T88VI").profile
        #expect((t88vi.dpi, t88vi.printableDots, t88vi.paperWidth) == (180, 512, .millimetres(80)))
        #expect(t88vi.language == .escpos && t88vi.kind == .receipt && t88vi.processIDResponse)
        #expect(t88vi.drawerPins == [.pin2, .pin5] && t88vi.cutter == .partial && t88vi.nearEndSensor)
        let t20 = try ModelCatalog.entry(named: "TM-T20III").profile
        #expect((t20.dpi, t20.printableDots) == (203, 576))
        let zd420 = try ModelCatalog.entry(named: "ZD420-203dpi")
        #expect(zd420.headDots == 832 && zd420.profile.printableDots == 812 && zd420.profile.paperWidth == .inches(4))
        #expect(zd420.profile.language == .zpl && zd420.profile.kind == .label && zd420.profile.mediaTracking == .gap)
        #expect(zd420.profile.drawerPins.isEmpty && !zd420.profile.processIDResponse)
        #expect(try ModelCatalog.entry(named: "ZD420-300dpi").profile.printableDots == 1200)
    }
}
