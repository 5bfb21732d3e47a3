import PrintModel
import Templates
public import PrinterLanguages

/// What ePOS-Print answers: `<response success code status battery>` in a
/// SOAP envelope, always with HTTP 200. `status` is the printer's state as
/// the ASB bits Epson's SDK defines (ASB_PRINT_SUCCESS 0x2, ASB_OFF_LINE
/// 0x8, ASB_COVER_OPEN 0x20, ASB_RECEIPT_NEAR_END 0x20000, ASB_RECEIPT_END
/// 0x80000 ...), never 0, which Epson's SDK reads as "no answer".
public struct EposResponse: Hashable, Sendable {
    public var success: Bool
    /// Empty on success; `EPTR_REC_EMPTY`, `EPTR_COVER_OPEN`, `SchemaError`, `DeviceNotFound`, `EX_TIMEOUT`...
    public var code: String
    public var status: UInt32
    public var printJobID: String?
    public var deviceID: String?

    public init(success: Bool, code: String = "", status: UInt32, printJobID: String? = nil, deviceID: String? = nil) {
        self.success = success; self.code = code; self.status = status; self.printJobID = printJobID; self.deviceID = deviceID
    }

    public static let printSuccess: UInt32 = 0x2
    static let drawerKick: UInt32 = 0x4, offline: UInt32 = 0x8, coverOpen: UInt32 = 0x20
    static let autocutterError: UInt32 = 0x800, unrecoverableError: UInt32 = 0x2000, autoRecoverableError: UInt32 = 0x4000
    static let nearEnd: UInt32 = 0x20000, paperEnd: UInt32 = 0x80000

    /// The ASB bits of a printer in `status`, with ASB_PRINT_SUCCESS when a job just printed.
    /// Bit 0x4 is the drawer pin high (Epson's SDK reads it as closed by default).
    public static func bits(of status: RawPrinterStatus, printed: Bool) -> UInt32 {
        var bits: UInt32 = printed ? printSuccess : 0
        if status.drawerOpen != true { bits |= drawerKick }
        if status.offline || status.printerState == .stopped { bits |= offline }
        if status.coverOpen { bits |= coverOpen }
        if status.cutterError { bits |= autocutterError }
        if status.unrecoverableError { bits |= unrecoverableError }
        if status.autoRecoverableError { bits |= autoRecoverableError }
        if status.paperNearEnd { bits |= nearEnd }
        if status.paperEnd { bits |= paperEnd }
        return bits == 0 ? printSuccess : bits
    }

    /// The error code of a printer in `status` that cannot print; nil when it can.
    public static func code(of status: RawPrinterStatus) -> String? {
        if status.paperEnd { return "EPTR_REC_EMPTY" }
        if status.coverOpen { return "EPTR_COVER_OPEN" }
        if status.cutterError { return "EPTR_CUTTER" }
        if status.unrecoverableError { return "EPTR_UNRECOVERABLE" }
        if status.autoRecoverableError { return "EPTR_AUTOMATICAL" }
        if status.offline || status.printerState == .stopped { return "EX_TIMEOUT" }
        return nil
    }

    /// The SOAP envelope Epson's SDK and Odoo read.
    public var xml: String {
        let header = deviceID.map { "<s:Header><parameter xmlns=\"\(EposResponse.namespace)\"><devid>\(escaped($0))</devid>"
            + "<printjobid>\(escaped(printJobID ?? ""))</printjobid></parameter></s:Header>" } ?? ""
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>"
            + "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">\(header)<s:Body>"
            + "<response xmlns=\"\(EposResponse.namespace)\" success=\"\(success)\" code=\"\(escaped(code))\" status=\"\(status)\" battery=\"0\"/>"
            + "</s:Body></s:Envelope>"
    }

    public static let namespace = "http://www.epson-pos.com/schemas/2011/03/epos-print"

    private func escaped(_ text: String) -> String { MarkupEscaping.text(text) }
}
