@testable import Rendering
import Testing

/// Bad data is refused before zint sees it, with a message that says what to do.
@Suite struct BarcodeValidationTests {
    func failure(_ barcode: Barcode) -> BarcodeError? {
        do { _ = try BarcodeRenderer.render(barcode); return nil } catch { return error }
    }

    @Test func lettersInEAN13NameTheCharacterAndTheAllowedOnes() throws {
        let error = try #require(failure(Barcode(.ean13, data: "40063A1333931", moduleDots: 2)))
        #expect(error == .invalidCharacter(.ean13, data: "40063A1333931", character: "A", position: 6,
                                           allowed: "digits 0-9"))
        let message = error.description
        #expect(message.contains("EAN-13") && message.contains("'A'") && message.contains("position 6")
                && message.contains("only digits 0-9"), "\(message)")
    }

    @Test func wrongEANCheckDigitNamesTheRightOne() throws {
        let error = try #require(failure(Barcode(.ean13, data: "4006381333937", moduleDots: 2)))
        #expect(error == .wrongCheckDigit(.ean13, data: "4006381333937", given: "7", expected: "1"))
        #expect(error.description.contains("right check digit is 1"), "\(error)")
    }

    @Test func twelveEANDigitsGetTheirCheckDigitComputed() throws {
        #expect(failure(Barcode(.ean13, data: "400638133393", moduleDots: 2)) == nil)
        #expect(BarcodeValidation.gtinCheckDigit(Array("03600029145")) == "2")
    }

    @Test func wrongUPCALengthSaysHowManyDigits() throws {
        let error = try #require(failure(Barcode(.upca, data: "0360002914", moduleDots: 2)))
        #expect(error.description.contains("11 digits, or 12 with the check digit"), "\(error)")
    }

    @Test func oddLengthITFIsRefused() throws {
        let error = try #require(failure(Barcode(.itf, data: "123456789", moduleDots: 2)))
        #expect(error == .wrongLength(.itf, data: "123456789", count: 9,
                                      expected: "an even number of digits (add a leading 0 if the number allows it)"))
        // A 10-digit IATA bag-tag licence plate is fine.
        #expect(failure(Barcode(.itf, data: "0125123456", moduleDots: 2)) == nil)
    }

    @Test func lowercaseCode39AndNonASCIICode128AreRefused() throws {
        let code39 = try #require(failure(Barcode(.code39, data: "AB-c", moduleDots: 2)))
        #expect(code39.description.contains("'c' at position 4")
                && code39.description.contains("uppercase letters A-Z"), "\(code39)")
        let code128 = try #require(failure(Barcode(.code128, data: "Café", moduleDots: 2)))
        #expect(code128.description.contains("'é' at position 4"), "\(code128)")
    }

    @Test func moduleAndHeightMustBePositive() {
        #expect(failure(Barcode(.qr, data: "x", moduleDots: 0)) == .invalidModule(0))
        #expect(failure(Barcode(.code128, data: "x", moduleDots: 2, barHeightDots: 0)) == .invalidHeight(0))
        #expect(failure(Barcode(.qr, data: "", moduleDots: 2)) == .empty(.qr))
    }

    @Test func zintErrorsComeThroughWithItsMessage() throws {
        // More than a version 40 QR Code holds.
        let error = try #require(failure(Barcode(.qr, data: String(repeating: "x", count: 8000), moduleDots: 2)))
        guard case .encoder(.qr, let code, let message) = error else {
            Issue.record("expected a zint error, got \(error)"); return
        }
        #expect(code >= 5 && !message.isEmpty, "\(error)")
    }

    @Test func boardingPassOfTheWrongLengthNames60() throws {
        let short = String(BarcodeDecodeTests.boardingPass.dropLast(5))
        do {
            try BCBP.validate(short)
            Issue.record("a 55-character BCBP passed")
        } catch {
            #expect(error.description.contains("exactly 60"), "\(error)")
        }
        // Extra characters the size field does not announce.
        #expect(throws: BarcodeError.self) { try BCBP.validate(BarcodeDecodeTests.boardingPass + "XYZ") }
        #expect(throws: BarcodeError.self) { try BCBP.validate("X" + BarcodeDecodeTests.boardingPass.dropFirst()) }
    }
}
