public import PrintModel

/// The raw printers KioskPrint knows by model: what each can do, from its
/// maker's public documents, so a printer that cannot be asked (a raw printer
/// answers no Get-Printer-Attributes) is still drawn for at its exact width.
///
/// Each entry's `source` names the document its figures come from, and says
/// which figures could not be confirmed there; those take the series'
/// documented value and should be checked against a real unit.
/// Common to every receipt entry: the cut range 25 mm to 3 m. No data sheet
/// gives a shortest or longest cut; 25 mm is the shortest receipt
/// `CutPlanner` makes for common 80 mm printers and 3 m the longest page it
/// plans (`PageGeometry.previewCutLengths`).
public enum ModelCatalog {
    /// Every model, receipt printers first.
    public static let entries: [CatalogEntry] = receiptPrinters + starPrinters + labelPrinters

    static let shortestReceipt = Length.millimetres(25)
    static let longestReceipt = Length.millimetres(3000)
    static let roll80 = Length.millimetres(80), roll58 = Length.millimetres(58)

    static let receiptPrinters: [CatalogEntry] = [
        epsonTM(model: "TM-T88V", dpi: 180, dots80: 512, dots58: 360, nearEnd: true, aliases: ["TM-T88V-DT"],
                source: "Epson TM-T88V Specification (STANDARD) Rev. B and Technical Reference Guide (epson-biz.com). "
                    + "180 dpi, partial-cut autocutter and 72.0 mm = 512 dots on 80 mm paper confirmed in Epson's TM-T88 series "
                    + "documents; 360 dots on 58 mm, two drawer drives, near-end sensor and GS ( H fn 48 are the TM-T88 series' "
                    + "documented values, not re-read for this model."),
        epsonTM(model: "TM-T88VI", dpi: 180, dots80: 512, dots58: 360, nearEnd: true, aliases: ["TM-T88VI-iHUB", "TM-T88VI-DT2"],
                source: "Epson TM-T88VI Technical Reference Guide (epson-biz.com). 512 dots at 180 dpi on 80 mm paper as in the "
                    + "TM-T88 series documents; the issue's own figure (512 dots at 180 dpi). 58 mm width, drawer, near-end and "
                    + "process ID: TM-T88 series values, not confirmed from the guide here."),
        epsonTM(model: "TM-T88VII", dpi: 180, dots80: 512, dots58: 360, nearEnd: true, aliases: [],
                source: "Epson TM-T88VII Technical Reference Guide (epson-biz.com). The guide could not be read here: every "
                    + "figure is the TM-T88 series' documented value (180 dpi, 512 dots on 80 mm, partial cut, two drawer drives)."),
        epsonTM(model: "TM-T20III", dpi: 203, dots80: 576, dots58: 420, nearEnd: false, aliases: ["TM-T20IIIL"],
                source: "Epson TM-T20III Technical Reference Guide, "
                    + "https://www.epson-biz.com/modules/pos/index.php?page=single_doc&cid=4537&scat=20&pcat=3. 203 dpi and 576 dots "
                    + "on 80 mm as the issue states and the escpos-printer-db profile records; 58 mm = 52.5 mm / 420 dots from "
                    + "Epson's 203 dpi TM guides; no near-end sensor in the TM-T20 series (not confirmed for the III)."),
        epsonTM(model: "TM-m30II", dpi: 203, dots80: 576, dots58: 420, nearEnd: false, aliases: ["TM-m30II-H", "TM-m30II-NT", "TM-m30II-S", "TM-m30II-SL"],
                source: "Epson TM-m30II Technical Reference Guide (epson-biz.com). Not readable here: 203 dpi, 576 dots on 80 mm, "
                    + "420 on 58 mm, partial cut and two drawer drives are the TM-m30 series' documented values; near-end sensor "
                    + "assumed absent."),
        epsonTM(model: "TM-m30III", dpi: 203, dots80: 576, dots58: 420, nearEnd: false, aliases: ["TM-m30III-H"],
                source: "Epson TM-m30III Technical Reference Guide Rev. E, "
                    + "https://download4.epson.biz/sec_pubs/bs/pdf/TM-m30III_trg_en_revE.pdf (dimensions table p. 121). 203 dpi "
                    + "and 576 dots on 80 mm as recorded from it by escpos-printer-db; 58 mm, drawer and sensors: TM-m30 series values."),
        // Star's printers are listed in starPrinters: they speak Star's own languages.
        CatalogEntry(profile: RawProfile(
            make: "Citizen", model: "CT-S310II", language: .escpos, paperWidth: roll80, printableDots: 576, dpi: 203,
            cutter: .partial, minimumCut: shortestReceipt, maximumCut: longestReceipt, drawerPins: [.pin2, .pin5],
            source: "Citizen CT-S310II user's manual and command reference (citizen-systems.com); model ID 3DH per its GS I "
                + "table. 203 dpi, 576 dots on 80 mm: series values; the 58 mm width, cutter modes and near-end sensor could "
                + "not be confirmed here, so only 80 mm and a partial cut are listed."),
            aliases: ["CT-S310"]),
        CatalogEntry(profile: RawProfile(
            make: "Bixolon", model: "SRP-350III", language: .escpos, paperWidth: roll80, printableDots: 512, dpi: 180,
            cutter: .partial, minimumCut: shortestReceipt, maximumCut: longestReceipt, drawerPins: [.pin2, .pin5],
            nearEndSensor: true,
            source: "Bixolon SRP-350III / SRP-350plusIII product specification and command manual Rev. 1.00 (bixolon.com). "
                + "The command manual documents the near-end sensor's DLE EOT bits; 180 dpi and 512 dots on 80 mm are the "
                + "SRP-350 series' values, not re-read here."),
            aliases: ["SRP-350plusIII", "SRP-352III", "SRP-350IIIK"],
            paperOptions: [PaperOption(width: roll80, printableDots: 512), PaperOption(width: roll58, printableDots: 360)]),
        CatalogEntry(profile: RawProfile(
            make: "Custom", model: "VKP80III", language: .escpos, paperWidth: .millimetres(82.5), printableDots: 640, dpi: 203,
            cutter: .full, minimumCut: shortestReceipt, maximumCut: longestReceipt, nearEndSensor: true,
            source: "Custom VKP80III user manual (custom.biz): 8 dots/mm head (stated as 200 dpi; counted here as the 203 dpi "
                + "it is, see DotPitch), paper 57.5 to 82.5 mm wide, 80 mm = 640 dots print width (on 82.5 mm paper here: "
                + "80 mm paper cannot hold 640 dots at 203 dpi), full cut, paper near-end sensor, no drawer port, 11.9 mm from "
                + "head to cutter. Print width and sensor not confirmed from the data sheet here; narrower paper needs --printable."),
            aliases: ["VKP80 III", "VKP80III-EE"]),
    ]

    /// Star's receipt printers, each in the language Star's own SDKs drive it
    /// with (StarPRNT SDK for Android `ModelCapability.java` and for Windows
    /// `ModelDictionary.cs`, github.com/star-micronics): the TSP100 family
    /// before the IV takes Star Graphic mode only (no ESC/POS: Star support,
    /// mike42/escpos-php#46; python-escpos's documentation says the same);
    /// the TSP650II, TSP700II and TSP800II default to Star Line mode; the
    /// TSP100IV, mC-Print and mPOP speak StarPRNT. Their 1284 IDs all say
    /// `CMD:STAR`, so the `MDL` finds the entry: a TSP143IIIU reports
    /// `MDL:TSP143 (STR_T-001)`, and Star's SDK tables give the others'
    /// model strings (`TSP143IV (STR-001)`, `MCP31 (STR-001)`, `POP10 (STR-001)`,
    /// `TSP654 (STR_T-001)`, `TSP743II (STR_T-001)`, `TSP847II (STR_T-001)`).
    /// Widths: the SDK's paper constants (2 in = 384 dots, 3 in = 576, 4 in = 832) at 203 dpi.
    static let starPrinters: [CatalogEntry] = [
        star(model: "TSP143", language: .starGraphic, roll: roll80, dots: 576,
             aliases: ["TSP113", "TSP143II", "TSP143III", "TSP143IIIU", "TSP143IIIW", "TSP143IIILAN", "TSP143IIIBI",
                       "TSP143GT", "TSP113GT", "TSP100", "TSP100II", "TSP100III", "TSP100IIU", "TSP100IIIU"],
             source: "Star Graphic Mode Command Specifications Rev 2.32 (TSP100 family) and Star's CUPS filter rastertostar "
                + "(TSP143: 72 bytes a row = 576 dots, ESC * r F 13 partial cut). 203 dpi, 72 mm on 80 mm paper: the series' "
                + "documented print width. Two drawer drives as on every TSP100; near-end sensor not fitted."),
        star(model: "TSP143IV", language: .starPRNT, roll: roll80, dots: 576,
             aliases: ["TSP100IV", "TSP143IV-UE", "TSP143IVUE", "TSP143IV-UEWB", "TSP143IV SK"],
             source: "StarPRNT Command Specifications Rev 4.01 as quoted for the TSP100IV (ESC GS S supported, ESC * r not), "
                + "Star's SDK (TSP100IV: StarPRNT, 3 in = 576 dots). Drawer drives not confirmed for the IV (Star's table and a "
                + "StarXpand report disagree); both listed as on the TSP100."),
        star(model: "mC-Print3", language: .starPRNT, roll: roll80, dots: 576, aliases: ["MCP31", "MCP30", "MCP31L", "MCP31LB"],
             source: "Star's StarPRNT SDK ModelCapability (mC-Print3: StarPRNT, 3 in = 576 dots) and ModelDictionary "
                + "(MCP30/MCP31 (STR-001)). 203 dpi; cutter and drawer drives as Star's product page lists them, not re-read here."),
        star(model: "mC-Print2", language: .starPRNT, roll: roll58, dots: 384, aliases: ["MCP20", "MCP21", "MCP21LB"],
             source: "Star's StarPRNT SDK (mC-Print2: StarPRNT, 2 in = 384 dots; MCP20/MCP21 (STR-001)). 203 dpi on 58 mm paper."),
        star(model: "mPOP", language: .starPRNT, roll: roll58, dots: 384, aliases: ["POP10"],
             source: "Star's StarPRNT SDK (mPOP: StarPRNT, 2 in = 384 dots; POP10 (STR-001)). The drawer is built in and "
                + "driven as device 1."),
        star(model: "TSP654", language: .starLine, roll: roll80, dots: 576,
             aliases: ["TSP651", "TSP654II", "TSP650", "TSP650II", "TSP654IIBI", "TSP654IISK"],
             source: "STAR Line Mode Command Specifications Rev 1.12 (TSP650 among its models; raster extension §3.4, ESC d "
                + "3-44), Star's SDK (TSP650II: StarLine, 3 in = 576 dots), rastertostar (TSP651/654: 72 bytes a row). "
                + "203 dpi; near-end sensor (optional) assumed absent."),
        star(model: "TSP743II", language: .starLine, roll: roll80, dots: 576, aliases: ["TSP743", "TSP700II", "TSP700"],
             source: "STAR Line Mode Command Specifications Rev 1.12 (TSP700II), Star's SDK (TSP700II: StarLine, 3 in = "
                + "576 dots), rastertostar (72 bytes a row on 80 mm). 203 dpi."),
        star(model: "TSP847II", language: .starLine, roll: .millimetres(112), dots: 832,
             aliases: ["TSP800II", "TSP800", "TSP847", "TSP828L"],
             source: "STAR Line Mode Command Specifications Rev 1.12 (TSP800II), Star's SDK (TSP800II: StarLine, 4 in = 832 "
                + "dots), rastertostar (104 bytes a row). 203 dpi on 112 mm paper."),
    ]

    /// A Star receipt printer: 203 dpi, a partial-cut autocutter, two drawer drives (pins 2 and 5).
    static func star(model: String, language: PrinterLanguage, roll: Length, dots: Int, aliases: [String],
                     source: String) -> CatalogEntry {
        CatalogEntry(profile: RawProfile(
            make: "Star", model: model, language: language, paperWidth: roll, printableDots: dots, dpi: 203,
            cutter: .partial, minimumCut: shortestReceipt, maximumCut: longestReceipt, drawerPins: [.pin2, .pin5],
            source: source),
            aliases: aliases)
    }

    static let labelPrinters: [CatalogEntry] = [
        zebra(model: "ZD420", dpi: 203, headDots: 832, longest: .millimetres(991),
              source: "Zebra ZD420 specification sheet (zebra.com): 203 dpi = 8 dots/mm, 4.09 in / 104 mm = 832 dots "
                + "maximum print width, 39 in maximum print length."),
        zebra(model: "ZD420", dpi: 300, headDots: 1280, longest: .millimetres(991),
              source: "Zebra ZD420 specification sheet (zebra.com): 300 dpi = 12 dots/mm, 4.27 in / 108 mm = 1280 dots maximum "
                + "print width. The 300 dpi maximum print length was not found; the 203 dpi model's 39 in is used."),
        zebra(model: "ZD620", dpi: 203, headDots: 832, longest: .millimetres(991),
              source: "Zebra ZD620 specification sheet (zebra.com): 203 dpi, 4.09 in / 104 mm = 832 dots, 39 in maximum length "
                + "(ZD420 series values; not re-read here)."),
        zebra(model: "ZD620", dpi: 300, headDots: 1280, longest: .millimetres(991),
              source: "Zebra ZD620 specification sheet (zebra.com): 300 dpi, 4.27 in / 108 mm = 1280 dots (ZD420 series values; "
                + "maximum length not found, 39 in used)."),
        zebra(model: "ZT230", dpi: 203, headDots: 832, longest: .millimetres(3988),
              source: "Zebra ZT230 specification sheet (zebra.com): 203 dpi, 4.09 in / 104 mm = 832 dots, 157 in maximum print "
                + "length. Its 1284 MDL reports 200dpi for this head."),
        zebra(model: "ZT230", dpi: 300, headDots: 1227, longest: .millimetres(1854),
              source: "Zebra ZT230 specification sheet (zebra.com): 300 dpi, 4.09 in / 104 mm = 1227 dots, 73 in maximum print "
                + "length. Figures not confirmed here."),
    ]

    /// An Epson TM receipt printer: ESC/POS with `GS ( H` process IDs, a
    /// partial-cut autocutter, two drawer drives, 80 and 58 mm paper.
    static func epsonTM(model: String, dpi: Int, dots80: Int, dots58: Int, nearEnd: Bool, aliases: [String],
                        source: String) -> CatalogEntry {
        CatalogEntry(profile: RawProfile(
            make: "Epson", model: model, language: .escpos, paperWidth: roll80, printableDots: dots80, dpi: dpi,
            cutter: .partial, minimumCut: shortestReceipt, maximumCut: longestReceipt, drawerPins: [.pin2, .pin5],
            nearEndSensor: nearEnd, processIDResponse: true, source: source),
            aliases: aliases,
            paperOptions: [PaperOption(width: roll80, printableDots: dots80), PaperOption(width: roll58, printableDots: dots58)])
    }

    /// A Zebra ZPL label printer on 4 in die-cut labels (gap sensing), tear-off
    /// (the cutter is an option the 1284 ID does not reveal), 0.25 in shortest label.
    static func zebra(model: String, dpi: Int, headDots: Int, longest: Length, source: String) -> CatalogEntry {
        let stock = Length.inches(4)
        let stockDots = min(headDots, DotPitch(dpi: dpi).dots(stock))
        return CatalogEntry(profile: RawProfile(
            make: "Zebra", model: "\(model)-\(dpi)dpi", language: .zpl, paperWidth: stock, printableDots: stockDots, dpi: dpi,
            cutter: .none, minimumCut: .inches(0.25), maximumCut: longest, mediaTracking: .gap,
            source: source + " Shortest label 0.25 in, gap sensing and no cutter (an option) are series defaults."),
            aliases: [model, "\(model)d", "\(model)t"],
            paperOptions: [PaperOption(width: stock, printableDots: stockDots)], headDots: headDots)
    }
}
