/// IATA Bar Coded Boarding Pass (Resolution 792) checks, for the PDF417 on a
/// boarding pass. Used only when the caller says the data is a BCBP: most
/// PDF417 symbols are not.
public enum BCBP {
    /// Characters of the mandatory part of one leg, after the format code
    /// and the number of legs: name 20, e-ticket 1, PNR 7, from 3, to 3,
    /// carrier 3, flight 5, julian date 3, compartment 1, seat 4,
    /// sequence 5, passenger status 1, conditional size 2 (hex).
    static let legMandatoryLength = 58
    /// The whole mandatory part of a one-leg pass: "M", legs, then one leg.
    public static let mandatoryLength = 2 + legMandatoryLength

    /// Checks the format code, the number of legs and the length of the
    /// mandatory part; throws `BarcodeError.invalidBoardingPass` naming the
    /// expected length. It does not check the contents of each field.
    public static func validate(_ data: String) throws(BarcodeError) {
        let characters = Array(data)
        guard characters.first == "M" else {
            throw .invalidBoardingPass("it must start with the format code \"M\", "
                + "but starts with \(characters.first.map { "\"\($0)\"" } ?? "nothing").")
        }
        guard characters.count >= 2, let legs = characters[1].wholeNumberValue, (1...4).contains(legs) else {
            throw .invalidBoardingPass("the second character must be the number of legs, 1 to 4.")
        }
        guard characters.count >= mandatoryLength else {
            throw .invalidBoardingPass("the mandatory part has \(characters.count) characters, but IATA "
                + "Resolution 792 needs exactly \(mandatoryLength) for the first leg (\"M\", legs, 20-character "
                + "name, e-ticket flag, 7-character PNR, from, to, carrier, flight, date, compartment, seat, "
                + "sequence, status, 2-digit hex size of the conditional part).")
        }
        // The last two mandatory characters give the size of the conditional
        // part that follows; with one leg the string ends right after it.
        let sizeText = String(characters[(mandatoryLength - 2)..<mandatoryLength])
        guard let conditional = Int(sizeText, radix: 16) else {
            throw .invalidBoardingPass("characters \(mandatoryLength - 1)-\(mandatoryLength) (\"\(sizeText)\") must "
                + "be the size of the conditional part in hexadecimal, such as 00.")
        }
        // A one-leg pass ends after the conditional part, or goes on with
        // the security section, which starts with "^".
        let end = mandatoryLength + conditional
        if legs == 1, characters.count < end || (characters.count > end && characters[end] != "^") {
            throw .invalidBoardingPass("it has \(characters.count) characters, but a one-leg pass is the "
                + "\(mandatoryLength)-character mandatory part plus the \(conditional) conditional characters "
                + "its size field (\"\(sizeText)\") announces: \(end) in all, then optionally \"^\" and "
                + "security data.")
        }
    }
}
