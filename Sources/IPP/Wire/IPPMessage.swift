public import Foundation

/// An IPP request or response as it travels (RFC 8010): the version, the
/// operation-id (request) or status-code (response), the request-id and the
/// attribute groups in order. What a printer KioskPrint serves reads from a
/// client and writes back; `IPPResponse` is the client side's view of a reply.
public struct IPPMessage: Sendable, Hashable {
    /// `2.0` for IPP/2.0; clients send 1.1 and 2.0 (2.1 and 2.2 are 2.0 on the wire).
    public var version: IPPVersion
    /// The operation-id of a request (Print-Job is 0x0002), or the status-code of a response.
    public var code: Int
    public var requestID: Int
    public var groups: [IPPAttributeGroup]

    public init(version: IPPVersion = .init(major: 2, minor: 0), code: Int, requestID: Int, groups: [IPPAttributeGroup]) {
        self.version = version; self.code = code; self.requestID = requestID; self.groups = groups
    }

    /// The attributes of every group of one kind, in order.
    public func attributes(in tag: IPPGroup) -> [IPPAttribute] {
        groups.filter { $0.tag == tag }.flatMap(\.attributes)
    }
}

/// An IPP version number, `major.minor`.
public struct IPPVersion: Sendable, Hashable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    public var description: String { "\(major).\(minor)" }
}

/// Why bytes are not an IPP message; what a server answers 400 to.
public enum IPPWireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes end before the end-of-attributes tag.
    case incomplete
    /// libcups could not read them as IPP.
    case malformed
    /// More attributes than `IPPWireLimits.attributes` (collection members count).
    case tooManyAttributes(limit: Int)
    /// An attribute before the first group tag: libcups reads it, RFC 8010 has no place for it.
    case outsideAnyGroup(attribute: String)
    /// An attribute whose name is empty once read (it began with a NUL byte).
    case unnamedAttribute

    public var description: String {
        switch self {
        case .incomplete: "The IPP request ends before its attributes do."
        case .malformed: "The request is not IPP: its attributes could not be read (RFC 8010)."
        case .tooManyAttributes(let limit): "The IPP request has more than \(limit) attributes."
        case .outsideAnyGroup(let name): "The IPP request's attribute \"\(name)\" comes before any attribute group (RFC 8010 §3.1.1)."
        case .unnamedAttribute: "The IPP request has an attribute without a name."
        }
    }
}

/// What a server reads from a client before refusing: the bytes themselves
/// are bounded by the listener's body limit.
public struct IPPWireLimits: Sendable, Hashable {
    /// Attributes, collection members included. A Print-Job from iOS or CUPS
    /// sends about 20; Get-Printer-Attributes a few more.
    public var attributes = 1_000
    public init() {}
}
