import PrintModel

extension SimulatedPrinter {
    /// An 80 mm thermal receipt printer: 203 dpi, 4 mm side margins (72 mm,
    /// 576 dots printable), cut lengths 25 mm to 3 m, all four trim finishings.
    public static let receipt80mm = SimulatedPrinter(
        name: "KioskPrint Receipt 80mm", location: "Front counter", kinds: [.receipt, .roll],
        attributes: rollPrinter(kinds: "receipt,roll", model: "KioskPrint Simulated TM-80",
                                widthHundredths: 8000, sideMargin: 400, minCut: 2500, maxCut: 300000,
                                mediaNames: "roll_max_80x3000mm,roll_min_80x25mm"))

    /// A 58 mm thermal receipt printer: 203 dpi, 5 mm side margins (48 mm, 384 dots printable).
    public static let receipt58mm = SimulatedPrinter(
        name: "KioskPrint Receipt 58mm", location: "Coupon station", kinds: [.receipt, .roll],
        attributes: rollPrinter(kinds: "receipt,roll", model: "KioskPrint Simulated Mini-58",
                                widthHundredths: 5800, sideMargin: 500, minCut: 2000, maxCut: 100000,
                                mediaNames: "roll_max_58x1000mm,roll_min_58x20mm"))

    /// A 4x6 in (101.6 x 152.4 mm) direct-thermal label printer at 203 dpi.
    public static let label4x6 = SimulatedPrinter(
        name: "KioskPrint Label 4x6", location: "Packing bench", kinds: [.label],
        attributes: """
        ATTR text printer-make-and-model "KioskPrint Simulated LP-4"
        ATTR keyword printer-kind label
        ATTR resolution pwg-raster-document-resolution-supported 203dpi
        ATTR keyword pwg-raster-document-type-supported black_1,sgray_8
        ATTR keyword urf-supported V1.4,W8,SRGB24,RS203,CP1,IS1,MT1-3-4-5-8-11-12
        ATTR resolution printer-resolution-supported 203dpi
        ATTR resolution printer-resolution-default 203dpi
        ATTR keyword media-supported na_index-4x6_4x6in
        ATTR keyword media-default na_index-4x6_4x6in
        ATTR keyword media-ready na_index-4x6_4x6in
        ATTR collection media-size-supported {
          MEMBER integer x-dimension 10160
          MEMBER integer y-dimension 15240
        }
        ATTR integer media-left-margin-supported 0
        ATTR integer media-right-margin-supported 0
        ATTR integer media-top-margin-supported 0
        ATTR integer media-bottom-margin-supported 0
        \(mediaCol("media-col-database", [labelStock]))
        \(mediaCol("media-col-ready", [labelStock]))
        \(mediaCol("media-col-default", [labelStock]))
        ATTR keyword media-source-supported main
        ATTR keyword media-type-supported labels
        ATTR enum finishings-supported 3,60
        ATTR enum finishings-default 3
        ATTR keyword print-color-mode-supported monochrome
        ATTR keyword print-color-mode-default monochrome
        ATTR boolean color-supported false
        ATTR keyword sides-supported one-sided
        ATTR rangeOfInteger copies-supported 1-999
        \(inputTray(source: "main", type: "sheetFeedAutoNonRemovableTray"))
        """)

    /// An office A4/Letter colour printer at 300 and 600 dpi, duplex.
    public static let documentA4 = SimulatedPrinter(
        name: "KioskPrint Office A4", location: "Back office", kinds: [.document],
        attributes: """
        ATTR text printer-make-and-model "KioskPrint Simulated Office 600"
        ATTR keyword printer-kind document
        ATTR resolution pwg-raster-document-resolution-supported 300dpi,600dpi
        ATTR keyword pwg-raster-document-type-supported black_1,sgray_8,srgb_8
        ATTR keyword urf-supported V1.4,W8,SRGB24,RS300-600,CP1,DM1,IS1,MT1-2-3-4-5-6,DUPLEX
        ATTR resolution printer-resolution-supported 300dpi,600dpi
        ATTR resolution printer-resolution-default 600dpi
        ATTR keyword media-supported iso_a4_210x297mm,na_letter_8.5x11in
        ATTR keyword media-default iso_a4_210x297mm
        ATTR keyword media-ready iso_a4_210x297mm
        ATTR collection media-size-supported {
          MEMBER integer x-dimension 21000
          MEMBER integer y-dimension 29700
        },{
          MEMBER integer x-dimension 21590
          MEMBER integer y-dimension 27940
        }
        ATTR integer media-left-margin-supported 423
        ATTR integer media-right-margin-supported 423
        ATTR integer media-top-margin-supported 423
        ATTR integer media-bottom-margin-supported 423
        \(mediaCol("media-col-database", officeSheets))
        \(mediaCol("media-col-ready", [officeSheets[0]]))
        \(mediaCol("media-col-default", [officeSheets[0]]))
        ATTR keyword media-source-supported tray-1
        ATTR keyword media-type-supported stationery
        ATTR enum finishings-supported 3
        ATTR enum finishings-default 3
        ATTR keyword print-color-mode-supported monochrome,color
        ATTR keyword print-color-mode-default color
        ATTR boolean color-supported true
        ATTR keyword sides-supported one-sided,two-sided-long-edge,two-sided-short-edge
        ATTR rangeOfInteger copies-supported 1-999
        \(inputTray(source: "tray-1", type: "sheetFeedAutoRemovableTray"))
        """)

    /// 4x6 in direct-thermal labels, printed edge to edge.
    static let labelStock = MediaEntry(x: 10160, y: "15240", margins: (0, 0, 0, 0), source: "main", type: "labels",
                                       name: "na_index-4x6_4x6in")

    /// The three printers the demo and the test lab start: receipt, label, office.
    public static let standardSet: [SimulatedPrinter] = [.receipt80mm, .label4x6, .documentA4]

    // MARK: attribute-file building blocks

    /// A thermal roll printer. The roll appears in media-size-supported and in
    /// media-col-database/ready with its cut-length range as `y-dimension`.
    static func rollPrinter(kinds: String, model: String, widthHundredths: Int, sideMargin: Int,
                            minCut: Int, maxCut: Int, mediaNames: String) -> String {
        let range = "\(minCut)-\(maxCut)"
        let roll = MediaEntry(x: widthHundredths, y: range, rangeY: true, margins: (0, 0, sideMargin, sideMargin),
                              source: "main-roll")
        // The default cut, when a job does not choose one: the longest the printer allows.
        var defaultLength = roll
        defaultLength.y = String(maxCut)
        defaultLength.rangeY = false
        return """
        ATTR text printer-make-and-model "\(model)"
        ATTR keyword printer-kind \(kinds)
        ATTR resolution pwg-raster-document-resolution-supported 203dpi
        ATTR keyword pwg-raster-document-type-supported black_1,sgray_8
        ATTR keyword urf-supported V1.4,W8,SRGB24,RS203,CP1,IS1,MT1-3-4-5-8-11-12
        ATTR resolution printer-resolution-supported 203dpi
        ATTR resolution printer-resolution-default 203dpi
        ATTR keyword media-supported \(mediaNames)
        ATTR keyword media-default \(mediaNames.split(separator: ",")[0])
        ATTR keyword media-ready \(mediaNames.split(separator: ",")[0])
        ATTR collection media-size-supported {
          MEMBER integer x-dimension \(widthHundredths)
          MEMBER rangeOfInteger y-dimension \(range)
        }
        ATTR integer media-left-margin-supported \(sideMargin)
        ATTR integer media-right-margin-supported \(sideMargin)
        ATTR integer media-top-margin-supported 0
        ATTR integer media-bottom-margin-supported 0
        \(mediaCol("media-col-database", [roll]))
        \(mediaCol("media-col-ready", [roll]))
        \(mediaCol("media-col-default", [defaultLength]))
        ATTR keyword media-source-supported main-roll
        ATTR keyword media-type-supported continuous
        ATTR enum finishings-supported 3,60,61,62,63
        ATTR enum finishings-default 3
        ATTR keyword print-color-mode-supported monochrome
        ATTR keyword print-color-mode-default monochrome
        ATTR boolean color-supported false
        ATTR keyword sides-supported one-sided
        ATTR rangeOfInteger copies-supported 1-99
        \(inputTray(source: "main-roll", type: "continuousRoll"))
        """
    }

    /// One entry of a media-col collection: a size (y may be a range, for a
    /// roll), its margins (top, bottom, left, right), source, type and name.
    struct MediaEntry {
        var x: Int
        var y: String
        var rangeY = false
        var margins: (Int, Int, Int, Int)
        var source: String
        var type: String?
        var name: String?
    }

    /// A4 and Letter in tray 1, with the 4.23 mm margins of office printers.
    static let officeSheets = [
        MediaEntry(x: 21000, y: "29700", margins: (423, 423, 423, 423), source: "tray-1", type: "stationery",
                   name: "iso_a4_210x297mm"),
        MediaEntry(x: 21590, y: "27940", margins: (423, 423, 423, 423), source: "tray-1", type: "stationery",
                   name: "na_letter_8.5x11in"),
    ]

    /// A media-col collection attribute with one value per entry (ipptool
    /// syntax separates collection values with `},{`).
    static func mediaCol(_ attribute: String, _ entries: [MediaEntry]) -> String {
        let values = entries.map { entry in
            var lines = [
                "  MEMBER collection media-size {",
                "    MEMBER integer x-dimension \(entry.x)",
                "    MEMBER \(entry.rangeY ? "rangeOfInteger" : "integer") y-dimension \(entry.y)",
                "  }",
            ]
            if let name = entry.name { lines.append("  MEMBER keyword media-size-name \(name)") }
            lines += [
                "  MEMBER integer media-top-margin \(entry.margins.0)",
                "  MEMBER integer media-bottom-margin \(entry.margins.1)",
                "  MEMBER integer media-left-margin \(entry.margins.2)",
                "  MEMBER integer media-right-margin \(entry.margins.3)",
                "  MEMBER keyword media-source \(entry.source)",
            ]
            if let type = entry.type { lines.append("  MEMBER keyword media-type \(type)") }
            return lines.joined(separator: "\n")
        }
        return "ATTR collection \(attribute) {\n" + values.joined(separator: "\n},{\n") + "\n}"
    }

    /// printer-input-tray makes ippeveprinter's /media web form work, which is
    /// how tests take the paper out (level 0) and put it back
    /// (`RunningPrinter.setMediaLevel`). The form wants it as octetString
    /// values (PWG 5100.13), one per media-source-supported value, and
    /// media-type-supported declared as well; a collection is ignored.
    static func inputTray(source: String, type: String) -> String {
        "ATTR octetString printer-input-tray \"type=\(type);mediafeed=0;mediaxfeed=0;maxcapacity=250;"
            + "level=250;status=0;name=\(source);\""
    }
}
