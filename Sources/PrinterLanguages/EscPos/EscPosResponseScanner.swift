/// One message an ESC/POS printer sends back.
public enum EscPosResponse: Hashable, Sendable {
    /// A one-byte answer to `DLE EOT n` (binary 0xx1xx10).
    case realTimeStatus(UInt8)
    /// The answer to `GS ( H` fn 48: `37 22 d1 d2 d3 d4 00`, with the process ID.
    case processID(ProcessID)
    /// A 4-byte Automatic Status Back message (`GS a`), first byte binary 0xx1xx00.
    case automaticStatus([UInt8])
    /// A byte that fits none of the above (an XON/XOFF, or a reply KioskPrint did not ask for).
    case unknown(UInt8)

    /// How many bytes of the stream the message took.
    public var length: Int {
        switch self {
        case .realTimeStatus, .unknown: 1
        case .processID: 7
        case .automaticStatus: 4
        }
    }
}

/// Splits what an ESC/POS printer sends into its messages, holding back an
/// incomplete one until the rest arrives. One scanner per connection: the
/// status answers and the process-ID answer share the same byte stream.
///
/// Identification by Epson's "Transmission status identification" table
/// (TM-T88III Specification Rev. B, Appendix G): `DLE EOT` answers are
/// 0xx1xx10, the first byte of ASB 0xx1xx00; the process-ID answer's layout
/// (header 37H, identifier 22H, four ID bytes, NUL) is from the `GS ( H`
/// fn 48 page of the ESC/POS Command Reference.
public struct EscPosResponseScanner: Sendable {
    private var pending: [UInt8] = []

    /// A scanner that has seen nothing yet.
    public init() {}

    /// The complete messages in `bytes` (after whatever was held back), in order.
    public mutating func feed(_ bytes: [UInt8]) -> [EscPosResponse] {
        pending += bytes
        var responses: [EscPosResponse] = []
        var start = 0
        while start < pending.count {
            let byte = pending[start], available = pending.count - start
            if byte == 0x37 {
                // A process-ID answer, once all seven bytes are here and it is well formed.
                let looksLikeID = available < 2 || pending[start + 1] == 0x22
                if looksLikeID && available < 7 { break }
                if looksLikeID && pending[start + 6] == 0x00,
                   let id = ProcessID(String(decoding: pending[(start + 2)..<(start + 6)], as: UTF8.self)) {
                    responses.append(.processID(id)); start += 7; continue
                }
                responses.append(.unknown(byte)); start += 1
            } else if EscPosRealTimeStatus.isStatusByte(byte) {
                responses.append(.realTimeStatus(byte)); start += 1
            } else if byte & 0b1001_0011 == 0b0001_0000 {
                guard available >= 4 else { break }
                responses.append(.automaticStatus(Array(pending[start..<(start + 4)]))); start += 4
            } else {
                responses.append(.unknown(byte)); start += 1
            }
        }
        pending.removeFirst(start)
        return responses
    }

    /// Bytes held back as the start of an incomplete message.
    public var heldBack: [UInt8] { pending }
}
