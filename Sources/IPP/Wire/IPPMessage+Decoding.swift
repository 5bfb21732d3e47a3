import CCups
import Foundation

extension IPPMessage {
    /// Reads a message from the front of `bytes` with libcups' reader (the
    /// one cupsd and ippeveprinter use), and says where the document after
    /// the attributes starts. No libcups pointer outlives the call.
    public static func decode(_ bytes: [UInt8], limits: IPPWireLimits = IPPWireLimits())
        throws(IPPWireError) -> (message: IPPMessage, documentOffset: Int) {
        guard let ipp = ippNew() else { throw .malformed }
        defer { ippDelete(ipp) }
        let source = ByteSource(bytes)
        let context = Unmanaged.passRetained(source)
        defer { context.release() }
        let state = ippReadIO(context.toOpaque(), { context, buffer, wanted in
            guard let context, let buffer else { return -1 }
            return Unmanaged<ByteSource>.fromOpaque(context).takeUnretainedValue().read(into: buffer, count: wanted)
        }, 1, nil, ipp)
        guard state == IPP_STATE_DATA else { throw source.exhausted ? .incomplete : .malformed }

        var minor: Int32 = 0
        let major = ippGetVersion(ipp, &minor)
        let reply = IPPResponse(copying: ipp)
        // Found by the fuzzer: libcups keeps an attribute sent before any group
        // tag, in no group, which no reply could carry back.
        if let stray = reply.groups.first(where: { $0.tag == .none })?.attributes.first {
            throw .outsideAnyGroup(attribute: stray.name)
        }
        // Also the fuzzer's: a name that starts with a NUL byte reads as "", and
        // written back an empty name means "one more value of the attribute before".
        guard reply.groups.allSatisfy({ $0.attributes.allSatisfy(Self.isNamed) }) else { throw .unnamedAttribute }
        let count = reply.groups.reduce(0) { $0 + $1.attributes.reduce(0) { $0 + Self.weight(of: $1) } }
        guard count <= limits.attributes else { throw .tooManyAttributes(limit: limits.attributes) }
        let message = IPPMessage(version: IPPVersion(major: Int(major), minor: Int(minor)),
                                 code: Int(ippGetOperation(ipp).rawValue), requestID: reply.requestID, groups: reply.groups)
        return (message, source.position)
    }

    /// True when the attribute and every member of its collections have a name.
    private static func isNamed(_ attribute: IPPAttribute) -> Bool {
        !attribute.name.isEmpty && attribute.values.allSatisfy { value in
            if case .collection(let members) = value { return members.allSatisfy(isNamed) }
            return true
        }
    }

    /// An attribute and its collections' members, counted one each.
    private static func weight(of attribute: IPPAttribute) -> Int {
        1 + attribute.values.reduce(0) { total, value in
            if case .collection(let members) = value { return total + members.reduce(0) { $0 + weight(of: $1) } }
            return total
        }
    }
}

/// The bytes libcups' reader pulls from, and how far it got.
private final class ByteSource {
    let bytes: [UInt8]
    private(set) var position = 0
    /// True once the reader asked for more than was left.
    private(set) var exhausted = false

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count wanted: Int) -> Int {
        let count = min(wanted, bytes.count - position)
        if count < wanted { exhausted = true }
        guard count > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { all in
            buffer.update(from: all.baseAddress! + position, count: count)
        }
        position += count
        return count
    }
}
