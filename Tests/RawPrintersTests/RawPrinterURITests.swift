import RawPrinters
import Testing

@Suite("Raw printer URIs")
struct RawPrinterURITests {
    @Test(arguments: [
        "socket://192.168.1.50:9100",
        "socket://printer-7.shop.example:9101",
        "socket://[fd00::50]:9100",
        "socket://[fe80::1%25eth0]:9100",
        "usb://EPSON/TM-T88VI?serial=X5K1234567",
        "usb://Zebra%20Technologies/ZTC%20ZD420-203dpi%20ZPL?serial=D2J190500123",
        "usb://Star/TSP143%20%28STR_T-001%29",
        "usb://EPSON/TM-T20III?serial=X7Q0001&interface=1",
        "serial:///dev/ttyUSB0?baud=115200",
        "serial:///dev/ttyS0?baud=9600&flow=rtscts",
        "serial:///dev/serial/by-id/usb-Prolific_PL2303-if00?baud=38400&flow=xonxoff&bits=7&parity=even&stop=2",
    ])
    func theCanonicalFormPrintsBackUnchanged(_ text: String) throws {
        let uri = try RawPrinterURI(parsing: text)
        #expect(uri.description == text)
        #expect(try RawPrinterURI(parsing: uri.description) == uri)
    }

    @Test(arguments: [
        ("socket://10.0.0.7", "socket://10.0.0.7:9100"),
        ("  SOCKET://Receipt-Printer.LOCAL/ ", "socket://receipt-printer.local:9100"),
        ("socket://[FE80::A%eth0]:9100", "socket://[fe80::a%25eth0]:9100"),
        ("usb://EPSON/TM-T88V?serial=?", "usb://EPSON/TM-T88V"),
        ("usb://Zebra Technologies/ZTC ZD420-203dpi ZPL", "usb://Zebra%20Technologies/ZTC%20ZD420-203dpi%20ZPL"),
        ("serial:/dev/ttyS0?baud=9600+flow=hard+bits=8+parity=none", "serial:///dev/ttyS0?baud=9600&flow=rtscts"),
        ("serial:///dev/ttyUSB1?BAUD=19200&flow=soft&stop=1", "serial:///dev/ttyUSB1?baud=19200&flow=xonxoff"),
    ])
    func otherSpellingsReadAsTheirCanonicalForm(_ written: String, _ canonical: String) throws {
        #expect(try RawPrinterURI(parsing: written).description == canonical)
    }

    @Test func theParsedValuesAreDecoded() throws {
        #expect(try RawPrinterURI(parsing: "socket://[fe80::1%25enp3s0]:9100") == .socket(host: "fe80::1%enp3s0", port: 9100))
        let zebra = try RawPrinterURI(parsing: "usb://Zebra%20Technologies/ZTC%20ZD420-203dpi%20ZPL?serial=D2J190500123")
        #expect(zebra == .usb(USBPrinterIdentity(make: "Zebra Technologies", model: "ZTC ZD420-203dpi ZPL",
                                                 serialNumber: "D2J190500123")))
        let line = try RawPrinterURI(parsing: "serial:///dev/ttyUSB0?baud=57600&flow=rtscts&bits=7&parity=odd&stop=2")
        #expect(line == .serial(path: "/dev/ttyUSB0", settings: SerialSettings(baud: 57600, flowControl: .rtsCTS, dataBits: 7,
                                                                             parity: .odd, stopBits: 2)))
        #expect(line.scheme == .serial)
    }

    @Test(arguments: [
        ("printer.local:9100", "it has no scheme"),
        ("lpd://10.0.0.7/queue", "the scheme 'lpd' is not socket, usb or serial"),
        ("ipp://10.0.0.7/ipp/print", "is an IPP printer's address"),
        ("socket:10.0.0.7", "socket: must be followed by //"),
        ("socket://", "the host is missing"),
        ("socket://10.0.0.7:", "the port after ':' is missing"),
        ("socket://10.0.0.7:70000", "the port 70000 is outside 1 to 65535"),
        ("socket://10.0.0.7:0", "the port 0 is outside 1 to 65535"),
        ("socket://10.0.0.7:ninety", "the port 'ninety' is not a number"),
        ("socket://10.0.0.300", "'10.0.0.300' is not an IPv4 address"),
        ("socket://fd00::50", "an IPv6 address must be written in brackets"),
        ("socket://[fd00::zz]", "'fd00::zz' is not an IPv6 address"),
        ("socket://[fd00::50", "no closing ']'"),
        ("socket://bad_host!:9100", "is not a host name"),
        ("socket://10.0.0.7/queue1", "socket:// takes no path or options"),
        ("socket://10.0.0.7?waiteof=false", "socket:// takes no path or options"),
        ("socket://admin@10.0.0.7", "no user name"),
        ("usb://EPSON", "the model is missing after the make"),
        ("usb://EPSON/", "the model is missing"),
        ("usb:///TM-T88V", "the make is missing"),
        ("usb://EPSON/TM%2", "a '%' escape in the make or model is broken"),
        ("usb://EPSON/TM-T88V?serial=1&color=yes", "'color' is not one of its options (interface, serial)"),
        ("usb://EPSON/TM-T88V?serial=1&serial=2", "the option 'serial' is given twice"),
        ("usb://EPSON/TM-T88V?interface=one", "the interface 'one' is not a number"),
        ("serial://dev/ttyUSB0?baud=9600", "three slashes"),
        ("serial:///dev/ttyUSB0", "the speed is missing"),
        ("serial:///dev/ttyUSB0?baud=14400", "the baud '14400' is not a serial speed"),
        ("serial:///dev/ttyUSB0?baud=9600&flow=dtrdsr", "Linux has no DTR/DSR flow control"),
        ("serial:///dev/ttyUSB0?baud=9600&flow=cts", "flow=cts is not rtscts, xonxoff or none"),
        ("serial:///dev/ttyUSB0?baud=9600&bits=9", "bits=9 is not 5, 6, 7 or 8"),
        ("serial:///dev/ttyUSB0?baud=9600&parity=mark", "parity=mark is not none, even or odd"),
        ("serial:///dev/ttyUSB0?baud=9600&stop=3", "stop=3 is not 1 or 2"),
        ("serial:///dev/ttyUSB0?baud", "the option 'baud' is not key=value"),
        ("serial://", "the device path (such as /dev/ttyUSB0) is missing"),
    ])
    func aBadAddressIsRefusedSayingWhatIsWrong(_ text: String, _ problem: String) {
        #expect {
            try RawPrinterURI(parsing: text)
        } throws: { error in
            guard let refusal = error as? RawURIError else { return false }
            return refusal.uri == text && refusal.description.contains(problem)
                && refusal.description.hasPrefix("'\(text)' is not a raw printer address: ")
        }
    }

    @Test func aRefusalShowsWhatAGoodAddressOfItsSchemeLooksLike() throws {
        let socket = try #require(throws: RawURIError.self) { try RawPrinterURI(parsing: "socket://10.0.0.7:99999") }
        #expect(socket.description.contains("Write it as socket://HOST or socket://HOST:PORT"))
        let usb = try #require(throws: RawURIError.self) { try RawPrinterURI(parsing: "usb://EPSON") }
        #expect(usb.description.contains("usb://MAKE/MODEL?serial=SERIAL, as `kioskprint printers discover` lists it"))
        let serial = try #require(throws: RawURIError.self) { try RawPrinterURI(parsing: "serial:///dev/ttyS0?baud=100") }
        #expect(serial.description.contains("serial:///dev/ttyUSB0?baud=115200"))
        #expect(serial.description.contains("1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400"))
        let unknown = try #require(throws: RawURIError.self) { try RawPrinterURI(parsing: "tcp://10.0.0.7") }
        #expect(unknown.description.contains("socket://HOST[:PORT], usb://MAKE/MODEL?serial=SERIAL or serial:///dev/ttyUSB0"))
    }
}
