import Testing
@testable import Discovery
import PrintModel

/// A printer announced both as IPP and as a raw `_pdl-datastream` socket is
/// one printer, shown by its IPP record, which says what it can do.
@Suite struct RawMergerTests {
    static func printer(_ key: ServiceKey) -> DiscoveredPrinter {
        DiscoveredPrinter(serviceName: key.name, secure: false, raw: key.type == "_pdl-datastream._tcp", hostName: "tm.local",
                          address: "192.168.1.40", port: key.type == "_ipp._tcp" ? 631 : 9100,
                          interfaceIndex: key.interface, txt: TXTRecord(strings: ["UUID=\(PrinterMergerTests.uuid)"]))
    }

    @Test func ippIsPreferredOverRawWhicheverArrivesFirst() {
        let raw = PrinterMergerTests.key("_pdl-datastream._tcp"), ipp = PrinterMergerTests.key("_ipp._tcp")
        var merger = PrinterMerger()
        #expect(merger.update(raw, Self.printer(raw)) == [.appeared(Self.printer(raw))])
        #expect(Self.printer(raw).uri == "socket://192.168.1.40:9100")
        #expect(merger.update(ipp, Self.printer(ipp)) == [.changed(Self.printer(ipp))])
        #expect(merger.remove(ipp) == [.changed(Self.printer(raw))])
    }
}
