import PrintModel
import RawPrinters
import Testing

@Suite("IEEE 1284 device IDs")
struct DeviceIDTests {
    @Test func anEpsonReceiptPrinter() throws {
        let id = DeviceID("MFG:EPSON;CMD:ESCPOS;MDL:TM-T88V;CLS:PRINTER;DES:TSP100 compatible TM-T88V;")
        #expect(id.manufacturer == "EPSON")
        #expect(id.model == "TM-T88V")
        #expect(id.commandSet == ["ESCPOS"])
        #expect(id.deviceClass == "PRINTER")
        #expect(id.printerDescription == "TSP100 compatible TM-T88V")
        #expect(id.serialNumber == nil)
        #expect(id.languages == [.escpos])
        let identity = try #require(USBPrinterIdentity(deviceID: id, usbSerialNumber: "X5K0012345\n"))
        #expect(RawPrinterURI.usb(identity).description == "usb://EPSON/TM-T88V?serial=X5K0012345")
    }

    @Test func aZebraLabelPrinter() throws {
        let id = DeviceID("MFG:Zebra Technologies;CMD:ZPL;MDL:ZTC ZD420-203dpi ZPL;CLS:PRINTER;")
        #expect(id.manufacturer == "Zebra Technologies")
        #expect(id.model == "ZTC ZD420-203dpi ZPL")
        #expect(id.languages == [.zpl])
        let identity = try #require(USBPrinterIdentity(deviceID: id))
        #expect(RawPrinterURI.usb(identity).description == "usb://Zebra%20Technologies/ZTC%20ZD420-203dpi%20ZPL")
    }

    /// A TSP143IIIU's ID as it reports it: `CMD:STAR` names none of Star's
    /// three languages (a TSP600 in Star Line mode says the same), so the
    /// catalog's model decides, and the URI keeps the model string whole.
    @Test func aStarTSP143IIIU() throws {
        let id = DeviceID("MFG:Star;CMD:STAR;MDL:TSP143 (STR_T-001);CLS:PRINTER;")
        #expect(id.model == "TSP143 (STR_T-001)" && id.commandSet == ["STAR"])
        #expect(id.languages.isEmpty)
        let identity = try #require(USBPrinterIdentity(deviceID: id, usbSerialNumber: "2580318051600012"))
        let uri = RawPrinterURI.usb(identity).description
        #expect(uri == "usb://Star/TSP143%20%28STR_T-001%29?serial=2580318051600012")
        #expect(try RawPrinterURI(parsing: uri) == .usb(identity), "the URI reads back as the same printer")
    }

    @Test func longKeysSpacesAndNoFinalSemicolon() {
        let id = DeviceID(" MANUFACTURER : Star Micronics ;COMMAND SET: STAR, ESC/POS ; MODEL:TSP143IIIU; SERIALNUMBER:2580318051600012 ")
        #expect(id.manufacturer == "Star Micronics")
        #expect(id.model == "TSP143IIIU")
        #expect(id.commandSet == ["STAR", "ESC/POS"])
        #expect(id.serialNumber == "2580318051600012")
        #expect(id.languages == [.escpos])
        #expect(id.fields["COMMAND SET"] == "STAR, ESC/POS")
    }

    @Test func theLongKeyWinsOverTheShortOneAsInCUPS() {
        let id = DeviceID("MFG:ZEBRA;MANUFACTURER:Zebra Technologies;MDL:ZD620;SN:A1;SERN:B2;")
        #expect(id.manufacturer == "Zebra Technologies")
        #expect(id.serialNumber == "B2")
    }

    @Test(arguments: [
        ("ESCPOS", [PrinterLanguage.escpos]),
        ("ESC/POS", [.escpos]),
        ("EPSON", [.escpos]),
        ("ZPL", [.zpl]),
        ("ZPL2,EPL2", [.zpl]),
        ("ZPL II", [.zpl]),
        ("ESC/P2,ESCPR1,BDC", []),
        ("PCL,PJL,POSTSCRIPT", []),
        ("ESCPOS,ZPL,ESC/POS", [.escpos, .zpl]),
    ])
    func theCommandSetTellsTheLanguages(_ commands: String, _ languages: [PrinterLanguage]) {
        #expect(DeviceID("MFG:X;MDL:Y;CMD:\(commands);").languages == languages)
    }

    @Test func theIoctlBufferWithItsBigEndianLengthPrefix() throws {
        let text = "MFG:EPSON;CMD:ESCPOS;MDL:TM-T20III;CLS:PRINTER;"
        var buffer = [UInt8(0), UInt8(text.utf8.count + 2)] + Array(text.utf8)
        buffer += [UInt8](repeating: 0, count: 1024 - buffer.count)
        let id = try #require(DeviceID(lengthPrefixed: buffer))
        #expect(id.text == text)
        #expect(id.model == "TM-T20III")
    }

    @Test func aLittleEndianLengthIsReadTheOtherWayRound() throws {
        let text = String(repeating: "DES:long description;", count: 20) + "MFG:Citizen;MDL:CT-S310II;CMD:ESC/POS;"
        let length = text.utf8.count + 2  // over 255: the two orders differ
        let buffer = [UInt8(length & 0xFF), UInt8(length >> 8)] + Array(text.utf8) + [0, 0, 0]
        let id = try #require(DeviceID(lengthPrefixed: buffer))
        #expect(id.manufacturer == "Citizen")
        #expect(id.text == text)
    }

    @Test func aLengthPrefixShorterThanTheTextCutsIt() throws {
        // The length counts its own two bytes: 2 + 12 keeps "MFG:A;MDL:B;".
        let buffer = [UInt8(0), UInt8(14)] + Array("MFG:A;MDL:B;CMD:ZPL;".utf8)
        let id = try #require(DeviceID(lengthPrefixed: buffer))
        #expect(id.text == "MFG:A;MDL:B;")
        #expect(id.commandSet.isEmpty)
    }

    @Test func aBufferWithoutAnIDIsNil() {
        #expect(DeviceID(lengthPrefixed: [UInt8](repeating: 0, count: 64)) == nil)
        #expect(DeviceID(lengthPrefixed: [0, 20] + Array("MFG:A;\u{1}MDL:B;".utf8)) == nil)
        #expect(DeviceID(lengthPrefixed: [0, 4]) == nil)
    }

    @Test func theMakeIsTakenOffTheModelAndHPShortenedAsCUPSDoes() throws {
        let hp = try #require(USBPrinterIdentity(deviceID: DeviceID("MFG:Hewlett-Packard;MDL:HP LaserJet 4;SN:CN1;")))
        #expect(hp == USBPrinterIdentity(make: "HP", model: "LaserJet 4", serialNumber: "CN1"))
        let citizen = try #require(USBPrinterIdentity(deviceID: DeviceID("MFG:CITIZEN;MDL:CITIZEN CT-S310II;")))
        #expect(citizen.model == "CT-S310II")
        // Only a whole word is taken off: "EPSONIST" stays.
        let odd = try #require(USBPrinterIdentity(deviceID: DeviceID("MFG:EPSON;MDL:EPSONIST 1;")))
        #expect(odd.model == "EPSONIST 1")
        #expect(USBPrinterIdentity(deviceID: DeviceID("CLS:PRINTER;")) == nil)
    }
}
