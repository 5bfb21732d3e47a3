import Foundation
public import PrinterLanguages
import Templates

/// What a Star printer's WebPRNT answers: `<StarWebPrint><Response>` holding,
/// escaped as text, `<root><success><code><status>`, which
/// `StarWebPrintTrader` cuts out of the text. `status` is Star's automatic
/// status in hexadecimal, the bytes the Trader's `isPaperEnd`,
/// `isCoverOpen`, `isOffLine` ... test.
public struct WebPrntResponse: Hashable, Sendable {
    public var success: Bool
    /// Star's result code: `0` success, `1100` printer off line (on error).
    public var code: String
    /// Star's automatic status, 11 bytes as in Star's example (`23 86 ...`).
    public var status: [UInt8]

    public init(success: Bool, code: String, status: [UInt8]) {
        self.success = success; self.code = code; self.status = status
    }

    public static let succeeded = "0", offline = "1100"

    /// The automatic status of a printer in `status`, laid out as the Trader
    /// reads it: byte 3 the printer's state (cover open 0x20, off line 0x08,
    /// compulsion switch 0x04), byte 4 errors (non-recoverable 0x20, cutter
    /// 0x08), byte 6 the paper sensor (paper end 0x08, near end 0x04). A Star
    /// printer goes off line when its paper ends or its cover opens.
    public static func statusBytes(of status: RawPrinterStatus) -> [UInt8] {
        var bytes: [UInt8] = [0x23, 0x86, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        if status.coverOpen { bytes[2] |= 0x20 }
        if status.offline || status.printerState == .stopped || status.paperEnd || status.coverOpen || status.unrecoverableError {
            bytes[2] |= 0x08
        }
        // The drawer's switch: closed while the drawer is open, Star's default wiring.
        if status.drawerOpen == true { bytes[2] |= 0x04 }
        if status.unrecoverableError { bytes[3] |= 0x20 }
        if status.cutterError { bytes[3] |= 0x08 }
        if status.paperEnd { bytes[5] |= 0x08 }
        if status.paperNearEnd { bytes[5] |= 0x04 }
        return bytes
    }

    /// The status as the Trader reads it: two hexadecimal digits a byte, no spaces.
    public var statusText: String {
        status.map { String(format: "%02X", $0) }.joined()
    }

    /// The document Star's printer answers with (`text/xml`).
    public var xml: String {
        let inner = "<root><success>\(success)</success><code>\(code)</code><status>\(statusText)</status></root>"
        return #"<?xml version="1.0" encoding="UTF-8"?>"#
            + #"<StarWebPrint xmlns="http://www.star-m.jp" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">"#
            + "<Response>\(MarkupEscaping.text(inner))</Response></StarWebPrint>"
    }
}
