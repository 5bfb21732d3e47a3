import Foundation
import Testing
import CCups
import CAvahi
import CGpiod
import CPangoCairo
import CZint
import CSystemd

/// Every C library KioskPrint wraps links and answers: a missing or wrong
/// -dev package fails here, by name, before any feature test runs.
@Suite struct SystemLibraryTests {
    @Test func libcupsAnswers() {
        #expect(ippOpString(IPP_OP_GET_PRINTER_ATTRIBUTES).map { String(cString: $0) } == "Get-Printer-Attributes")
    }
    @Test func avahiAnswers() {
        #expect(String(cString: avahi_strerror(Int32(AVAHI_ERR_NO_DAEMON))).lowercased().contains("daemon"))
    }
    @Test func libgpiodIsTheV1API() {
        #expect(String(cString: gpiod_version_string()).hasPrefix("1."))
    }
    @Test func pangoAndCairoAnswer() {
        #expect(pango_version() >= 15000)
        #expect(cairo_version() >= 11600)
    }
    @Test func zintAnswers() {
        #expect(ZBarcode_Version() >= 21100)
    }
    @Test func libsystemdAnswers() {
        // Without a notify socket sd_notify sends nothing and says so with 0;
        // under systemd it sends and answers 1. Anything else is a failure.
        let expected: Int32 = getenv("NOTIFY_SOCKET") == nil ? 0 : 1
        #expect(sd_notify(0, "STATUS=test") == expected)
    }
}
