public import PrintModel

/// An IEEE 1284 device ID: the `KEY:value;` string a USB or parallel printer
/// gives about itself, for example
/// `MFG:EPSON;CMD:ESCPOS;MDL:TM-T88V;CLS:PRINTER;DES:TM-T88V;`.
///
/// Read tolerantly, as printers write it: keys in any case and with spaces
/// around them, long and short key names, a missing final `;`, and the
/// 2-byte length prefix that usblp's LPIOC_GET_DEVICE_ID leaves in front.
public struct DeviceID: Sendable, Hashable, CustomStringConvertible {
    /// The ID text as read, without a length prefix or trailing NULs.
    public let text: String
    /// Every `KEY:value` pair, keys uppercased and values trimmed. A key given
    /// twice keeps its first value.
    public let fields: [String: String]

    /// Parses an ID that has no length prefix (sysfs's `ieee1284_id`, CUPS's
    /// `device-id`). Pieces without a `:` are ignored.
    public init(_ text: String) {
        let trimmed = String(text.trimmingSuffix { $0 == "\0" || $0.isWhitespace }.drop { $0.isWhitespace })
        self.text = trimmed
        var fields: [String: String] = [:]
        for piece in trimmed.split(separator: ";") {
            guard let colon = piece.firstIndex(of: ":") else { continue }
            let key = piece[..<colon].trimmingWhitespace().uppercased()
            let value = piece[piece.index(after: colon)...].trimmingWhitespace()
            guard !key.isEmpty, !value.isEmpty, fields[key] == nil else { continue }
            fields[key] = value
        }
        self.fields = fields
    }

    /// Parses the buffer LPIOC_GET_DEVICE_ID fills: a 2-byte length (the ID's
    /// length plus these two bytes) in front of the text. The 1284 standard
    /// puts the length's high byte first; some printers put it last, so a
    /// length that does not fit the buffer is read the other way round, as
    /// CUPS does (backend/ieee1284.c, backendGetDeviceID). Nil when no ID is
    /// in the buffer, or it holds control characters other than tabs and line ends.
    public init?(lengthPrefixed buffer: [UInt8]) {
        guard buffer.count > 2 else { return nil }
        let bigEndian = Int(buffer[0]) << 8 | Int(buffer[1])
        let littleEndian = Int(buffer[1]) << 8 | Int(buffer[0])
        let length = [bigEndian, littleEndian].first { (3...buffer.count).contains($0) } ?? buffer.count
        var body = buffer[2..<length]
        if let end = body.firstIndex(of: 0) { body = body[..<end] }
        // Line ends and tabs become spaces; any other control byte means this is not an ID.
        var cleaned: [UInt8] = []
        for byte in body {
            switch byte {
            case 0x09, 0x0A, 0x0D: cleaned.append(0x20)
            case 0x00..<0x20, 0x7F: return nil
            default: cleaned.append(byte)
            }
        }
        let id = DeviceID(String(decoding: cleaned, as: UTF8.self))
        guard !id.fields.isEmpty else { return nil }
        self = id
    }

    /// `MANUFACTURER`, or its short form `MFG`.
    public var manufacturer: String? { field("MANUFACTURER", "MFG") }
    /// `MODEL`, or `MDL`.
    public var model: String? { field("MODEL", "MDL") }
    /// `COMMAND SET` (or `CMD`) split at commas: the languages the printer
    /// speaks, in its own words (`ESCPOS`, `ZPL`, `PCL`).
    public var commandSet: [String] {
        guard let list = field("COMMAND SET", "CMD") else { return [] }
        return list.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }
    /// `SERIALNUMBER`, `SERN` or `SN`, in the order CUPS looks for them.
    public var serialNumber: String? { field("SERIALNUMBER", "SERN", "SN") }
    /// `DESCRIPTION`, or `DES`.
    public var printerDescription: String? { field("DESCRIPTION", "DES") }
    /// `CLASS`, or `CLS` (`PRINTER` for a printer).
    public var deviceClass: String? { field("CLASS", "CLS") }

    /// The command languages KioskPrint drives that the `CMD` list names,
    /// in the list's order.
    public var languages: [PrinterLanguage] {
        var found: [PrinterLanguage] = []
        for entry in commandSet {
            if let language = PrinterLanguage(deviceIDCommand: entry), !found.contains(language) {
                found.append(language)
            }
        }
        return found
    }

    public var description: String { text }

    private func field(_ keys: String...) -> String? {
        keys.lazy.compactMap { fields[$0] }.first
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line ends.
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.trimmingSuffix { $0.isWhitespace })
    }

    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> SubSequence {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
