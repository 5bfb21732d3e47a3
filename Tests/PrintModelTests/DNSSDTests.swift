import Testing
import PrintModel

/// TXT records as they come off the wire, and the printer they announce.
@Suite struct TXTRecordTests {
    @Test func keysAreCaseInsensitiveAndValuesKeptAsSent() {
        let txt = TXTRecord(strings: ["TY=Star TSP143IV", "Note=Till 3", "rp=ipp/print"])
        #expect(txt.entries == ["ty": "Star TSP143IV", "note": "Till 3", "rp": "ipp/print"])
        #expect(txt["TY"] == "Star TSP143IV")
        #expect(txt["ty"] == "Star TSP143IV")
        #expect(txt.makeAndModel == "Star TSP143IV")
        #expect(txt.location == "Till 3")
        #expect(txt["missing"] == nil)
    }

    @Test func theFirstOccurrenceOfAKeyWinsWhateverItsCase() {
        #expect(TXTRecord(strings: ["dup=first", "dup=second"])["dup"] == "first")
        #expect(TXTRecord(strings: ["Note=Till 3", "note=Till 4", "NOTE=Till 5"]).location == "Till 3")
        #expect(TXTRecord(strings: ["papermax", "PaperMax=legal-A4"])["papermax"] == "", "a boolean key counts as a first occurrence")
        #expect(TXTRecord(strings: ["PaperMax=legal-A4", "papermax"])["papermax"] == "legal-A4")
    }

    @Test func aStringWithoutEqualsIsABooleanKeyThatIsPresent() {
        let txt = TXTRecord(strings: ["Scan", "Fax=F", ""])
        #expect(txt["scan"] == "")
        #expect(txt["SCAN"] != nil)
        #expect(txt.entries == ["scan": "", "fax": "F"], "an empty string adds nothing")
    }

    @Test func onlyTheFirstEqualsSplitsKeyFromValue() {
        let txt = TXTRecord(strings: ["adminurl=http://printer.local/?page=setup&x=1", "empty="])
        #expect(txt.adminURL == "http://printer.local/?page=setup&x=1")
        #expect(txt["empty"] == "")
    }

    @Test func aStringWithNoKeyIsIgnored() {
        // RFC 6763 §6.4: a string that starts with '=' has no key and is silently ignored.
        let txt = TXTRecord(strings: ["=orphan", "rp=ipp/print"])
        #expect(txt.entries == ["rp": "ipp/print"])
    }

    @Test func theUUIDLosesItsURNPrefixInAnyCase() {
        #expect(TXTRecord(strings: ["UUID=urn:uuid:6e0b1c2d-0000-4000-8000-000000000001"]).uuid
                == "6e0b1c2d-0000-4000-8000-000000000001")
        #expect(TXTRecord(strings: ["uuid=URN:UUID:6E0B1C2D-AAAA"]).uuid == "6E0B1C2D-AAAA")
        #expect(TXTRecord(strings: ["UUID=6e0b1c2d-aaaa"]).uuid == "6e0b1c2d-aaaa")
        #expect(TXTRecord(strings: ["UUID="]).uuid == nil)
        #expect(TXTRecord(strings: []).uuid == nil)
    }

    @Test func theResourcePathLosesItsLeadingSlashes() {
        #expect(TXTRecord(strings: ["rp=/ipp/print"]).resourcePath == "ipp/print")
        #expect(TXTRecord(strings: ["rp=//printers/receipt"]).resourcePath == "printers/receipt")
        #expect(TXTRecord(strings: ["rp=ipp/print/"]).resourcePath == "ipp/print/")
        #expect(TXTRecord(strings: []).resourcePath == "")
    }

    @Test func listsAndFlags() {
        let txt = TXTRecord(strings: ["pdl=application/pdf,,image/urf", "URF=W8,SRGB24,RS300", "Color=T", "Duplex=F",
                                      "kind=receipt,roll", "TLS=1.2", "note="])
        #expect(txt.documentFormats == ["application/pdf", "image/urf"])
        #expect(txt.urf == ["W8", "SRGB24", "RS300"])
        #expect(txt.color == true)
        #expect(txt.duplex == false)
        #expect(txt.kinds == [.receipt, .roll])
        #expect(txt.tls == "1.2")
        #expect(txt.location == nil, "an empty note is no location")
        #expect(TXTRecord(strings: ["Color=true"]).color == true)
        #expect(TXTRecord(strings: ["color=1"]).color == true)
        #expect(TXTRecord(strings: ["Duplex=t"]).duplex == true)
        #expect(TXTRecord(strings: []).color == nil)
        #expect(TXTRecord(strings: ["Color"]).color == true, "a key present without a value is true (RFC 6763 §6.4)")
        #expect(TXTRecord(strings: ["UUID=urn:uuid:"]).uuid == nil, "an empty UUID identifies nothing")
        #expect(TXTRecord(strings: []).documentFormats.isEmpty)
        #expect(TXTRecord(strings: []).kinds.isEmpty)
    }

    @Test func entriesGivenDirectlyAreLowercasedToo() {
        let txt = TXTRecord(entries: ["UUID": "abc", "Rp": "/x"])
        #expect(txt.entries == ["uuid": "abc", "rp": "/x"])
        #expect(txt.uuid == "abc")
        #expect(txt.resourcePath == "x")
    }
}

@Suite struct DiscoveredPrinterTests {
    func printer(secure: Bool = false, address: String = "192.168.1.40", port: Int = 631,
                 name: String = "Front Counter", txt: [String] = ["rp=ipp/print"]) -> DiscoveredPrinter {
        DiscoveredPrinter(serviceName: name, secure: secure, hostName: "tm-m30.local", address: address,
                          port: port, txt: TXTRecord(strings: txt))
    }

    @Test func theURIUsesTheSchemeOfTheServiceAndTheResolvedAddress() {
        #expect(printer().uri == "ipp://192.168.1.40:631/ipp/print")
        #expect(printer(secure: true).uri == "ipps://192.168.1.40:631/ipp/print")
        #expect(printer(port: 8631, txt: ["rp=/printers/receipt"]).uri == "ipp://192.168.1.40:8631/printers/receipt")
    }

    @Test func anIPv6AddressIsBracketed() {
        #expect(printer(address: "fe80::1").uri == "ipp://[fe80::1]:631/ipp/print")
        #expect(printer(secure: true, address: "2001:db8::40").uri == "ipps://[2001:db8::40]:631/ipp/print")
    }

    @Test func withoutAResourcePathTheURIUsesIPPPrint() {
        #expect(printer(txt: []).uri == "ipp://192.168.1.40:631/ipp/print")
        #expect(printer(txt: ["rp="]).uri == "ipp://192.168.1.40:631/ipp/print")
        #expect(printer(txt: ["rp=/"]).uri == "ipp://192.168.1.40:631/ipp/print")
    }

    @Test func theIDIsTheUUIDElseTheServiceName() {
        let uuid = "urn:uuid:6E0B1C2D-0000-4000-8000-000000000001"
        let plain = printer(txt: ["UUID=\(uuid)"])
        let secure = printer(secure: true, port: 443, name: "Front Counter (2)", txt: ["UUID=\(uuid)"])
        #expect(plain.id == "uuid:6e0b1c2d-0000-4000-8000-000000000001")
        #expect(plain.id == secure.id, "one printer on _ipp and _ipps is one printer")
        #expect(printer(txt: []).id == "name:Front Counter")
        #expect(printer(txt: ["UUID="]).id == "name:Front Counter")
        #expect(printer(name: "Till 4", txt: []).id != printer(txt: []).id)
    }
}
