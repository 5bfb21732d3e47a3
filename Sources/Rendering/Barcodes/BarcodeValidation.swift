/// Checks barcode data before it reaches zint, so the user gets a message
/// that names the symbology, the offending character and the fix, rather
/// than zint's terse error text.
public enum BarcodeValidation {
    /// Throws the first problem found in `barcode`'s data and sizes.
    public static func validate(_ barcode: Barcode) throws(BarcodeError) {
        guard barcode.moduleDots >= 1 else { throw .invalidModule(barcode.moduleDots) }
        if let height = barcode.barHeightDots, height < 1 { throw .invalidHeight(height) }
        let data = barcode.data, symbology = barcode.symbology
        guard !data.isEmpty else { throw .empty(symbology) }
        switch symbology {
        case .ean13:
            try onlyDigits(symbology, data)
            try gtin(symbology, data, lengths: 12...13)
        case .upca:
            try onlyDigits(symbology, data)
            try gtin(symbology, data, lengths: 11...12)
        case .itf:
            try onlyDigits(symbology, data)
            // ITF encodes digits in pairs; zint would silently add a leading 0,
            // which changes the number a scanner reads.
            guard data.count.isMultiple(of: 2) else {
                throw .wrongLength(symbology, data: data, count: data.count,
                                   expected: "an even number of digits (add a leading 0 if the number allows it)")
            }
        case .code39:
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-. $/+%")
            try only(symbology, data, allowed: "uppercase letters A-Z, digits 0-9 and - . space $ / + %") {
                allowed.contains($0)
            }
        case .code128, .code93:
            try only(symbology, data, allowed: "printable ASCII characters (space to ~)") {
                $0.unicodeScalars.count == 1 && (32...126).contains($0.unicodeScalars.first!.value)
            }
        case .ean8:
            try onlyDigits(symbology, data)
            try gtin(symbology, data, lengths: 7...8)
        case .upce:
            // 6 digits, or 7 with the number system (0 or 1), or 8 with the check digit (zint checks it).
            try onlyDigits(symbology, data)
            guard (6...8).contains(data.count) else {
                throw .wrongLength(symbology, data: data, count: data.count,
                                   expected: "6 digits, 7 with the number system 0 or 1 in front, or 8 with the check digit")
            }
        case .codabar:
            // A start and a stop character (A-D), and between them digits and - $ : / . +
            let ends = Set("ABCD"), inner = Set("0123456789-$:/.+")
            try only(symbology, data, allowed: "digits 0-9 and - $ : / . +, between a start and a stop character A-D") { inner.contains($0) || ends.contains($0) }
            guard data.count >= 3, let first = data.first, let last = data.last, ends.contains(first), ends.contains(last),
                  data.dropFirst().dropLast().allSatisfy({ inner.contains($0) }) else {
                throw .wrongLength(symbology, data: data, count: data.count,
                                   expected: "a start character A-D, at least one digit, and a stop character A-D (\"A40156B\")")
            }
        case .qr, .pdf417, .aztec, .datamatrix:
            break   // they encode any text; capacity errors come from zint
        }
    }

    /// The GS1 (EAN/UPC) check digit for the digits before it.
    public static func gtinCheckDigit(_ digits: some Collection<Character>) -> Character {
        // Weights 3,1,3,1... from the rightmost digit leftwards.
        var sum = 0
        for (index, digit) in digits.reversed().enumerated() {
            sum += (digit.wholeNumberValue ?? 0) * (index.isMultiple(of: 2) ? 3 : 1)
        }
        return Character(String((10 - sum % 10) % 10))
    }

    private static func onlyDigits(_ symbology: Barcode.Symbology, _ data: String) throws(BarcodeError) {
        try only(symbology, data, allowed: "digits 0-9") { $0.isASCII && $0.isNumber }
    }

    private static func only(_ symbology: Barcode.Symbology, _ data: String, allowed: String,
                             _ isAllowed: (Character) -> Bool) throws(BarcodeError) {
        for (index, character) in data.enumerated() where !isAllowed(character) {
            throw .invalidCharacter(symbology, data: data, character: character, position: index + 1, allowed: allowed)
        }
    }

    // The longer length carries a check digit, which must be right: a wrong
    // one usually means a mistyped number, and zint would only say "invalid".
    private static func gtin(_ symbology: Barcode.Symbology, _ data: String,
                             lengths: ClosedRange<Int>) throws(BarcodeError) {
        guard lengths.contains(data.count) else {
            throw .wrongLength(symbology, data: data, count: data.count,
                               expected: "\(lengths.lowerBound) digits, or \(lengths.upperBound) with the check digit")
        }
        guard data.count == lengths.upperBound, let given = data.last else { return }
        let expected = gtinCheckDigit(data.dropLast())
        guard given == expected else {
            throw .wrongCheckDigit(symbology, data: data, given: given, expected: expected)
        }
    }
}
