public import PrintModel

/// A printer's reply to an IPP request, converted out of libcups: the status
/// and every attribute group in the order sent. Printing and job tracking
/// read their replies through this same type.
public struct IPPResponse: Sendable, Hashable {
    /// The IPP `status-code`: below 0x0100 success, 0x0400... client errors,
    /// 0x0500... server errors (RFC 8011 Appendix B).
    public var statusCode: Int
    /// The status as libcups names it, e.g. `successful-ok`, `client-error-not-found`.
    public var statusName: String
    public var requestID: Int
    /// The groups in order. A Get-Jobs reply has one job group per job, so
    /// groups are kept apart rather than merged by kind.
    public var groups: [IPPAttributeGroup]
    /// The SHA-256 fingerprint of the certificate the printer presented, when
    /// the reply came over `ipps://`; nil over `ipp://`.
    public var certificate: CertificateFingerprint?

    public init(statusCode: Int, statusName: String, requestID: Int = 1, groups: [IPPAttributeGroup],
                certificate: CertificateFingerprint? = nil) {
        self.statusCode = statusCode; self.statusName = statusName
        self.requestID = requestID; self.groups = groups; self.certificate = certificate
    }

    /// `successful-ok` and its `-ignored-or-substituted-attributes` and
    /// `-conflicting-attributes` siblings: everything below 0x0100.
    public var isSuccess: Bool { statusCode >= 0 && statusCode < 0x0100 }

    /// Every attribute of every group, in order.
    public var attributes: [IPPAttribute] { groups.flatMap(\.attributes) }

    /// The attributes of every group of one kind, e.g. the printer attributes
    /// of a Get-Printer-Attributes reply.
    public func attributes(in tag: IPPGroup) -> [IPPAttribute] {
        groups.filter { $0.tag == tag }.flatMap(\.attributes)
    }

    /// The operation's `status-message`: the printer's own explanation.
    public var statusMessage: String? { attributes(in: .operation).string("status-message") }
}

/// One attribute group of a reply: its tag and its attributes in order.
public struct IPPAttributeGroup: Sendable, Hashable {
    public var tag: IPPGroup
    public var attributes: [IPPAttribute]

    public init(tag: IPPGroup, attributes: [IPPAttribute]) {
        self.tag = tag; self.attributes = attributes
    }
}
