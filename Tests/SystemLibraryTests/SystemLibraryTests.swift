import Foundation
import Testing
import CCups
import CAvahi
import CGpiod
import CPangoCairo
import CZint
import CJpeg
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
    @Test func libjpegAnswersThroughTheShim() {
        // Not a JPEG: libjpeg's error_exit must longjmp back into the shim,
        // which hands its message out instead of exiting the process.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var pixels: UnsafeMutablePointer<UInt8>? = nil
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
        let result = message.withUnsafeMutableBufferPointer { text in
            kp_jpeg_decode_gray(png, UInt(png.count), 100, 10_000, &pixels, &width, &height, text.baseAddress, text.count)
        }
        #expect(result == KP_JPEG_DAMAGED && pixels == nil)
        #expect(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .contains("Not a JPEG file"))
    }
    @Test func libsystemdAnswers() {
        // Without a notify socket sd_notify sends nothing and says so with 0;
        // under systemd it sends and answers 1. Anything else is a failure.
        let expected: Int32 = getenv("NOTIFY_SOCKET") == nil ? 0 : 1
        #expect(sd_notify(0, "STATUS=test") == expected)
    }
}
