import Foundation
import PrintModel
import RawPrinters
import Simulator
import Testing

/// USB printers found through a sysfs tree laid out as usblp lays it out,
/// in a temporary folder: the stand-in for USB hardware this machine lacks.
@Suite("USB printers by their device ID", .timeLimit(.minutes(1)))
struct USBPrinterTests {
    static let epson = "MFG:EPSON;CMD:ESCPOS;MDL:TM-T88V;CLS:PRINTER;DES:TSP100 compatible TM-T88V;"
    static let zebra = "MFG:Zebra Technologies;CMD:ZPL;MDL:ZTC ZD420-203dpi ZPL;CLS:PRINTER;SN:D2J190500123;"
    static let epsonURI = "usb://EPSON/TM-T88V?serial=X5K0012345"
    static let zebraURI = "usb://Zebra%20Technologies/ZTC%20ZD420-203dpi%20ZPL?serial=D2J190500123"

    @Test func connectedPrintersAreListedWithTheirIDsAndURIs() throws {
        let tree = try SysfsTree()
        try tree.plug(number: 1, port: 2, deviceID: Self.zebra, usbSerial: "ignored: the ID has SN")
        try tree.plug(number: 0, port: 1, deviceID: Self.epson, usbSerial: "X5K0012345")
        let printers = tree.directory.connectedPrinters()
        #expect(printers.map(\.node) == [tree.node(0), tree.node(1)])
        #expect(printers.map(\.uri.description) == [Self.epsonURI, Self.zebraURI])
        #expect(printers.map(\.languages) == [[.escpos], [.zpl]])
        #expect(printers.first?.deviceID.model == "TM-T88V")
    }

    @Test func theSameURIFindsThePrinterAfterTheNodesAreRenumbered() throws {
        let tree = try SysfsTree()
        let epson = try RawPrinterURI(parsing: Self.epsonURI)
        guard case .usb(let identity) = epson else { Issue.record("not a usb URI"); return }
        try tree.plug(number: 0, port: 1, deviceID: Self.epson, usbSerial: "X5K0012345")
        try tree.plug(number: 1, port: 2, deviceID: Self.zebra)
        #expect(try tree.directory.find(identity, for: epson).node == tree.node(0))

        // After a reboot the Zebra came up first and took lp0.
        try tree.unplugAll()
        try tree.plug(number: 0, port: 2, deviceID: Self.zebra)
        try tree.plug(number: 1, port: 1, deviceID: Self.epson, usbSerial: "X5K0012345")
        #expect(try tree.directory.find(identity, for: epson).node == tree.node(1))
    }

    @Test func theSerialNumberTellsTwoPrintersOfOneModelApart() throws {
        let tree = try SysfsTree()
        try tree.plug(number: 0, port: 1, deviceID: Self.epson, usbSerial: "X5K0000001")
        try tree.plug(number: 1, port: 2, deviceID: Self.epson, usbSerial: "X5K0000002")
        let second = USBPrinterIdentity(make: "epson", model: "tm-t88v", serialNumber: "X5K0000002")
        #expect(try tree.directory.find(second, for: .usb(second)).node == tree.node(1))

        let either = USBPrinterIdentity(make: "EPSON", model: "TM-T88V")
        let error = try #require(throws: LinkError.self) { try tree.directory.find(either, for: .usb(either)) }
        #expect(error.reason == .usbPrinterAmbiguous(nodes: [tree.node(0), tree.node(1)]))
        #expect(error.description.contains("Several USB printers EPSON TM-T88V are connected"))
        #expect(error.description.contains("names no serial number"))
    }

    @Test func aPrinterThatIsNotConnectedIsNamedWithWhatIsThere() throws {
        let tree = try SysfsTree()
        try tree.plug(number: 0, port: 1, deviceID: "MFG:EPSON;CMD:ESCPOS;MDL:TM-T20III;CLS:PRINTER;", usbSerial: "X7Q0000042")
        let uri = try RawPrinterURI(parsing: "usb://EPSON/TM-T88VI?serial=X")
        let error = try #require(throws: LinkError.self) { try RawLinks.open(uri, deadline: .now + .seconds(1), usbPrinters: tree.directory) }
        #expect(error.description == "No USB printer EPSON TM-T88VI (serial X) is connected: found EPSON TM-T20III "
            + "(serial X7Q0000042) at \(tree.node(0)). Check the cable and power, or save the printer again "
            + "(`kioskprint printers discover` lists the connected ones).")

        try tree.unplugAll()
        let none = try #require(throws: LinkError.self) { try RawLinks.open(uri, deadline: .now + .seconds(1), usbPrinters: tree.directory) }
        #expect(none.description.hasPrefix("No USB printer EPSON TM-T88VI (serial X) is connected: no USB printer is connected."))
    }

    @Test func noUsblpMeansNoPrinters() {
        let missing = USBPrinterDirectory(sysfsRoot: "/nonexistent-\(UUID().uuidString)", deviceRoot: "/dev")
        #expect(missing.connectedPrinters().isEmpty)
    }

    @Test func anEntryWithoutADeviceIDIsLeftOut() throws {
        let tree = try SysfsTree()
        try tree.plug(number: 0, port: 1, deviceID: "")
        try tree.plug(number: 1, port: 2, deviceID: Self.zebra)
        #expect(tree.directory.connectedPrinters().map(\.node) == [tree.node(1)])
    }

    @Test func bytesReachTheNodeTheURIResolvesTo() async throws {
        // The node is a pseudo-terminal here, so the test can read what the printer would get.
        let tree = try SysfsTree()
        let terminal = try PseudoTerminal(raw: true)
        try tree.plug(number: 3, port: 4, deviceID: Self.zebra, node: terminal.path)
        let uri = try RawPrinterURI(parsing: Self.zebraURI)
        let label = Array("^XA^FO50,50^A0N,40,40^FDKioskPrint^FS^XZ\n".utf8)
        let directory = tree.directory
        let (arrived, node, deviceID) = try await offloaded {
            let link = try RawLinks.open(uri, deadline: .now + .seconds(5), usbPrinters: directory)
            defer { link.close() }
            try link.write(label, stallWindow: .seconds(5))
            let usb = link as? USBLink
            return (try terminal.read(count: label.count), usb?.node, usb?.deviceID)
        }
        #expect(arrived == label)
        #expect(node == tree.node(3))
        #expect(deviceID == nil)  // a terminal answers no LPIOC_GET_DEVICE_ID
    }
}
