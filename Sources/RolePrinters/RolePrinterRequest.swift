public import Foundation
public import IPP
public import PrintModel

/// One IPP request to a role printer, as its listener read it off HTTP.
public struct RolePrinterRequest: Sendable {
    public var message: IPPMessage
    /// The bytes after the attributes: the document of Print-Job and Send-Document.
    public var document: Data
    /// The role named by the request's path, `/ipp/print/ROLE`.
    public var role: Role
    /// How the client reached the printer, e.g. `ipp://127.0.0.1:8631`, for
    /// the URIs it is answered with: the listener's scheme with the host and
    /// port of the request's `printer-uri`, else of its Host header.
    public var base: String
    /// The token's name when the listener checked HTTP Basic; nil on an open listener.
    public var authenticatedUser: String?

    public init(message: IPPMessage, document: Data, role: Role, base: String, authenticatedUser: String? = nil) {
        self.message = message; self.document = document; self.role = role
        self.base = Self.clientBase(message.attributes(in: .operation).string("printer-uri"), listener: base)
        self.authenticatedUser = authenticatedUser
    }

    /// The base a client's URIs start with. libcups sends `Host: localhost`
    /// to any loopback address, so a client that found the printer as
    /// `BOX.local` says so only in `printer-uri`; its answers (printer-more-info,
    /// printer-icons) must name the host it used, as DNS-SD's adminurl does.
    static func clientBase(_ printerURI: String?, listener: String) -> String {
        guard let printerURI, let schemeEnd = printerURI.range(of: "://"),
              let listenerScheme = listener.range(of: "://") else { return listener }
        let rest = printerURI[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        guard !authority.isEmpty, authority.count <= 262, authority.allSatisfy(allowed.contains) else { return listener }
        return String(listener[..<listenerScheme.upperBound] + authority)
    }

    /// The operation attributes, in order.
    var operationAttributes: [IPPAttribute] { message.attributes(in: .operation) }

    /// The job template attributes of Print-Job, Validate-Job and Create-Job.
    var jobAttributes: [IPPAttribute] { message.attributes(in: .job) }

    /// Who the request says it is from: the authenticated user when there
    /// is one (a name in the request cannot override it), else
    /// `requesting-user-name`, else "anonymous".
    var user: String {
        authenticatedUser ?? operationAttributes.string("requesting-user-name") ?? "anonymous"
    }
}

/// The checks every request passes before its operation runs (RFC 8011
/// §4.1): a version this printer speaks, a request-id, the charset and
/// natural language first in the operation group, and the target named.
enum RequestCheck {
    /// The versions served: IPP/1.1 and IPP/2.x (2.1 and 2.2 are 2.0 on the wire).
    static let versions = ["1.1", "2.0", "2.1", "2.2"]

    static func check(_ request: RolePrinterRequest) throws(IPPRefusal) -> IPPOperation {
        let message = request.message
        guard message.version.major == 1 && message.version.minor == 1 || message.version.major == 2 else {
            throw IPPRefusal(.versionNotSupported, "IPP/\(message.version) is not served here; send IPP/1.1 or IPP/2.0.")
        }
        guard message.requestID > 0 else {
            throw IPPRefusal(.badRequest, "The request-id is 0; RFC 8011 §4.1.1 asks for 1 or more.")
        }
        guard message.groups.first?.tag == .operation else {
            throw IPPRefusal(.badRequest, "The request has no operation attributes; it must begin with them (RFC 8011 §4.1.4).")
        }
        let first = message.groups[0].attributes
        guard first.count >= 2, first[0].name == "attributes-charset", first[1].name == "attributes-natural-language" else {
            throw IPPRefusal(.badRequest, "The operation attributes must begin with attributes-charset, then "
                + "attributes-natural-language (RFC 8011 §4.1.4).")
        }
        guard first[0].syntax == .charset, let charset = first[0].value?.string else {
            throw IPPRefusal(.badRequest, "attributes-charset must be one charset value.")
        }
        guard ["utf-8", "us-ascii"].contains(charset.lowercased()) else {
            throw IPPRefusal(.charsetNotSupported, "The charset \(charset) is not supported; send utf-8.",
                             unsupported: [first[0]])
        }
        guard first[1].syntax == .naturalLanguage, first[1].values.count == 1 else {
            throw IPPRefusal(.badRequest, "attributes-natural-language must be one naturalLanguage value.")
        }
        guard let operation = IPPOperation(rawValue: message.code) else {
            throw IPPRefusal(.operationNotSupported, String(format: "The operation 0x%04x is not supported by a KioskPrint role printer.",
                                                            message.code))
        }
        let attributes = request.operationAttributes
        if operation.targetsJob {
            guard attributes[named: "job-uri"] != nil || (attributes[named: "printer-uri"] != nil && attributes[named: "job-id"] != nil) else {
                throw IPPRefusal(.badRequest, "\(operation) needs the job: send job-uri, or printer-uri with job-id.")
            }
        } else if attributes[named: "printer-uri"] == nil {
            throw IPPRefusal(.badRequest, "\(operation) needs printer-uri (RFC 8011 §4.2).")
        }
        for attribute in attributes where attribute.values.count != 1 && singleValued.contains(attribute.name) {
            throw IPPRefusal(.badRequest, "\(attribute.name) takes one value, not \(attribute.values.count).")
        }
        return operation
    }

    /// Operation attributes that RFC 8011 defines with one value.
    private static let singleValued: Set<String> = [
        "printer-uri", "job-uri", "job-id", "requesting-user-name", "job-name", "document-format", "document-name",
        "compression", "last-document", "limit", "which-jobs", "my-jobs", "ipp-attribute-fidelity",
    ]

    /// The job a job operation names: `job-id`, or the number at the end of `job-uri`.
    static func jobID(_ request: RolePrinterRequest) throws(IPPRefusal) -> JobID {
        let attributes = request.operationAttributes
        if let id = attributes.int("job-id") {
            guard id > 0 else { throw IPPRefusal(.badRequest, "job-id must be 1 or more, not \(id).") }
            return JobID(Int64(id))
        }
        guard let uri = attributes.string("job-uri"), let last = uri.split(separator: "/").last, let id = JobID(String(last)) else {
            throw IPPRefusal(.badRequest, "job-uri does not end in a job number.")
        }
        return id
    }
}
