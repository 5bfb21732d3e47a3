/// Why a barcode cannot be drawn, worded for the person who wrote the
/// template or sent the data: what is wrong and what to do about it.
public enum BarcodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is empty.
    case empty(Barcode.Symbology)
    /// A character the symbology cannot encode, at a 1-based position.
    case invalidCharacter(Barcode.Symbology, data: String, character: Character, position: Int, allowed: String)
    /// The data has the wrong number of characters; `expected` says how many fit.
    case wrongLength(Barcode.Symbology, data: String, count: Int, expected: String)
    /// The last digit is not the check digit the others call for.
    case wrongCheckDigit(Barcode.Symbology, data: String, given: Character, expected: Character)
    /// The module is not a positive whole number of dots.
    case invalidModule(Int)
    /// The bar height is not a positive number of dots.
    case invalidHeight(Int)
    /// An IATA boarding-pass (BCBP) string that breaks Resolution 792.
    case invalidBoardingPass(String)
    /// zint refused the data: its return code and message.
    case encoder(Barcode.Symbology, code: Int32, message: String)

    public var description: String {
        switch self {
        case .empty(let symbology):
            return "The \(symbology) barcode has no data: give it the text to encode."
        case .invalidCharacter(let symbology, let data, let character, let position, let allowed):
            return "The \(symbology) barcode data \"\(data)\" has \(Self.quoted(character)) at position \(position): "
                + "only \(allowed) are allowed."
        case .wrongLength(let symbology, let data, let count, let expected):
            return "The \(symbology) barcode data \"\(data)\" has \(count) characters: it needs \(expected)."
        case .wrongCheckDigit(let symbology, let data, let given, let expected):
            return "The \(symbology) barcode data \"\(data)\" ends in check digit \(given), but the right check "
                + "digit is \(expected): use \(expected), or leave the check digit off and it is computed."
        case .invalidModule(let dots):
            return "A barcode module of \(dots) dots cannot be printed: use a whole number of dots, 1 or more."
        case .invalidHeight(let dots):
            return "A barcode height of \(dots) dots cannot be printed: use 1 dot or more."
        case .invalidBoardingPass(let reason):
            return "Not an IATA boarding pass (BCBP) string: \(reason)"
        case .encoder(let symbology, let code, let message):
            return "The \(symbology) barcode could not be encoded (zint error \(code)): \(message)"
        }
    }

    // A space or control character is invisible in a message; name it.
    private static func quoted(_ character: Character) -> String {
        if character == " " { return "a space" }
        if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
           scalar.value < 32 || scalar.value == 127 {
            return "control character U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
        return "'\(character)'"
    }
}
