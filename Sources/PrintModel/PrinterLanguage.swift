/// A command language a raw printer speaks: the bytes KioskPrint sends it
/// over a socket, a USB printer device or a serial line, with no IPP between.
///
/// Everything the rest of KioskPrint needs to know about a language (its
/// names, MIME type, file ending, how a printer's 1284 device ID names it)
/// is its row in `facts`; its encoder is one type in PrinterLanguages
/// (`RawProfile.commandLanguage`), and its models are catalog entries. A new
/// language is a case here, its row, its encoder and its models.
public enum PrinterLanguage: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// Epson's ESC/POS, and the ESC/POS emulations of Star, Citizen, Bixolon, Custom...
    case escpos
    /// Zebra's ZPL II.
    case zpl
    /// Star Graphic mode: the raster-only language of Star's TSP100 family
    /// before the TSP100IV (TSP113, TSP143, II, III).
    case starGraphic
    /// Star Line mode: Star's own language on the TSP650II, TSP700II, TSP800II
    /// and FVP10, here driven with its raster commands.
    case starLine
    /// StarPRNT: the language of Star's mC-Print, mPOP and TSP100IV.
    case starPRNT

    /// What is known of a language, in one place.
    public struct Facts: Sendable {
        /// The name people read in a maker's manual: `ESC/POS`, `ZPL II`.
        public var name: String
        /// The MIME type of a document in it.
        public var mimeType: String
        /// The kind of printer it is made for, when nothing else says.
        public var usualKind: RawProfile.PrinterKind
        /// The words a person may name it by (`--language`), as letters and digits, lowercased.
        public var userWords: Set<String>
        /// The file ending that says a file is in it (`print --file`, watched folders).
        public var fileExtension: String
        /// How an IEEE 1284 `CMD:` entry names it, as uppercased letters and
        /// digits: an entry equal to one of `deviceIDNames` or starting with
        /// one of `deviceIDPrefixes`.
        public var deviceIDNames: Set<String> = []
        public var deviceIDPrefixes: [String] = []
    }

    /// This language's row.
    public var facts: Facts {
        switch self {
        case .escpos:
            // `EPSON` is what Epson's receipt printers put in CMD; Epson's `ESC/P`,
            // `ESCP2` and `ESCPR` are inkjet languages, not ESC/POS.
            Facts(name: "ESC/POS", mimeType: "application/vnd.escpos", usualKind: .receipt,
                  userWords: ["escpos", "pos"], fileExtension: "escpos",
                  deviceIDNames: ["EPSON"], deviceIDPrefixes: ["ESCPOS"])
        case .zpl:
            // `application/vnd.zebra-zpl` is the type LPrint lists in
            // `document-format-supported`, so an IPP printer that takes ZPL is recognised by it too.
            Facts(name: "ZPL II", mimeType: "application/vnd.zebra-zpl", usualKind: .label,
                  userWords: ["zpl", "zpl2", "zplii"], fileExtension: "zpl",
                  deviceIDPrefixes: ["ZPL"])
        // Every Star printer says `CMD:STAR` in its 1284 ID, whichever of the
        // three languages it speaks (a TSP143IIIU and a TSP600 alike), so no
        // `CMD` entry names one: the model (`MDL`) and the catalog decide. The
        // MIME types are the ones Star's CloudPRNT names its languages by.
        case .starGraphic:
            Facts(name: "Star Graphic", mimeType: "application/vnd.star.raster", usualKind: .receipt,
                  userWords: ["stargraphic", "starraster"], fileExtension: "stargraphic")
        case .starLine:
            Facts(name: "Star Line", mimeType: "application/vnd.star.line", usualKind: .receipt,
                  userWords: ["starline", "starlinemode"], fileExtension: "starline")
        case .starPRNT:
            Facts(name: "StarPRNT", mimeType: "application/vnd.star.starprnt", usualKind: .receipt,
                  userWords: ["starprnt", "starprint"], fileExtension: "starprnt")
        }
    }

    /// The MIME type of a document in this language.
    public var mimeType: String { facts.mimeType }

    /// The kind of printer the language is made for, when nothing else says.
    public var usualKind: RawProfile.PrinterKind { facts.usualKind }

    /// `ESC/POS`, `ZPL II`, `Star Graphic`: the names people read in a maker's manual.
    public var description: String { facts.name }

    /// The language a person names (`--language`): `escpos`, `esc/pos`,
    /// `ESC-POS`, `zpl`, `zpl2`, `ZPL II`, `star-graphic`, `starline`,
    /// `StarPRNT`; case, spaces and punctuation
    /// ignored. Nil for anything else.
    public init?(userWord: String) {
        let letters = String(userWord.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
        guard let language = Self.allCases.first(where: { $0.facts.userWords.contains(letters) }) else { return nil }
        self = language
    }

    /// The language a file's ending says (`label.zpl`), case ignored; nil for any other ending.
    public init?(fileExtension: String) {
        let ending = fileExtension.lowercased()
        guard let language = Self.allCases.first(where: { $0.facts.fileExtension == ending }) else { return nil }
        self = language
    }

    /// The language one entry of a 1284 `CMD` list names: `ESCPOS`, `ESC/POS`
    /// and `EPSON` (Epson's receipt printers), `ZPL`, `ZPL2` and `ZPL II`
    /// (Zebra). Nil for anything else, notably Epson's inkjet `ESC/P`.
    public init?(deviceIDCommand entry: some StringProtocol) {
        let letters = entry.uppercased().filter { $0.isLetter || $0.isNumber }
        guard let language = Self.allCases.first(where: { language in
            language.facts.deviceIDNames.contains(letters) || language.facts.deviceIDPrefixes.contains { letters.hasPrefix($0) }
        }) else { return nil }
        self = language
    }
}
