public import IPP
import Foundation

/// The status codes a role printer answers with (RFC 8011 Appendix B), by
/// the names ipptool and CUPS print.
public struct IPPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let ok = IPPStatus(rawValue: 0x0000)
    public static let okIgnoredOrSubstituted = IPPStatus(rawValue: 0x0001)
    public static let badRequest = IPPStatus(rawValue: 0x0400)
    public static let forbidden = IPPStatus(rawValue: 0x0401)
    public static let notAuthorized = IPPStatus(rawValue: 0x0403)
    public static let notPossible = IPPStatus(rawValue: 0x0404)
    public static let notFound = IPPStatus(rawValue: 0x0406)
    public static let requestEntityTooLarge = IPPStatus(rawValue: 0x0408)
    public static let documentFormatNotSupported = IPPStatus(rawValue: 0x040A)
    public static let attributesOrValuesNotSupported = IPPStatus(rawValue: 0x040B)
    public static let uriSchemeNotSupported = IPPStatus(rawValue: 0x040C)
    public static let charsetNotSupported = IPPStatus(rawValue: 0x040D)
    public static let conflictingAttributes = IPPStatus(rawValue: 0x040E)
    public static let compressionNotSupported = IPPStatus(rawValue: 0x040F)
    public static let documentFormatError = IPPStatus(rawValue: 0x0411)
    public static let internalError = IPPStatus(rawValue: 0x0500)
    public static let operationNotSupported = IPPStatus(rawValue: 0x0501)
    public static let serviceUnavailable = IPPStatus(rawValue: 0x0502)
    public static let versionNotSupported = IPPStatus(rawValue: 0x0503)
    public static let deviceError = IPPStatus(rawValue: 0x0504)
    public static let notAcceptingJobs = IPPStatus(rawValue: 0x0506)
    public static let multipleDocumentJobsNotSupported = IPPStatus(rawValue: 0x0509)

    public var description: String {
        switch self {
        case .ok: "successful-ok"
        case .okIgnoredOrSubstituted: "successful-ok-ignored-or-substituted-attributes"
        case .badRequest: "client-error-bad-request"
        case .forbidden: "client-error-forbidden"
        case .notAuthorized: "client-error-not-authorized"
        case .notPossible: "client-error-not-possible"
        case .notFound: "client-error-not-found"
        case .requestEntityTooLarge: "client-error-request-entity-too-large"
        case .documentFormatNotSupported: "client-error-document-format-not-supported"
        case .attributesOrValuesNotSupported: "client-error-attributes-or-values-not-supported"
        case .uriSchemeNotSupported: "client-error-uri-scheme-not-supported"
        case .charsetNotSupported: "client-error-charset-not-supported"
        case .conflictingAttributes: "client-error-conflicting-attributes"
        case .compressionNotSupported: "client-error-compression-not-supported"
        case .documentFormatError: "client-error-document-format-error"
        case .internalError: "server-error-internal-error"
        case .operationNotSupported: "server-error-operation-not-supported"
        case .serviceUnavailable: "server-error-service-unavailable"
        case .versionNotSupported: "server-error-version-not-supported"
        case .deviceError: "server-error-device-error"
        case .notAcceptingJobs: "server-error-not-accepting-jobs"
        case .multipleDocumentJobsNotSupported: "server-error-multiple-document-jobs-not-supported"
        default: String(format: "0x%04x", rawValue)
        }
    }
}

/// The operations a role printer serves (RFC 8011, PWG 5100.13), by their
/// operation-id.
public enum IPPOperation: Int, CaseIterable, Sendable, CustomStringConvertible {
    case printJob = 0x0002
    case validateJob = 0x0004
    case createJob = 0x0005
    case sendDocument = 0x0006
    case cancelJob = 0x0008
    case getJobAttributes = 0x0009
    case getJobs = 0x000A
    case getPrinterAttributes = 0x000B
    case cancelMyJobs = 0x0039
    case closeJob = 0x003B
    case identifyPrinter = 0x003C

    public var description: String {
        switch self {
        case .printJob: "Print-Job"
        case .validateJob: "Validate-Job"
        case .createJob: "Create-Job"
        case .sendDocument: "Send-Document"
        case .cancelJob: "Cancel-Job"
        case .getJobAttributes: "Get-Job-Attributes"
        case .getJobs: "Get-Jobs"
        case .getPrinterAttributes: "Get-Printer-Attributes"
        case .cancelMyJobs: "Cancel-My-Jobs"
        case .closeJob: "Close-Job"
        case .identifyPrinter: "Identify-Printer"
        }
    }

    /// Operations that act on one job, named by `job-id` (with `printer-uri`) or `job-uri`.
    var targetsJob: Bool {
        switch self {
        case .sendDocument, .cancelJob, .getJobAttributes, .closeJob: true
        default: false
        }
    }
}

/// Why a request is refused: the status, a `status-message` that says what
/// to change, and the attributes to echo in the unsupported group.
public struct IPPRefusal: Error, Sendable, CustomStringConvertible {
    public var status: IPPStatus
    public var message: String
    public var unsupported: [IPPAttribute]

    public init(_ status: IPPStatus, _ message: String, unsupported: [IPPAttribute] = []) {
        self.status = status; self.message = message; self.unsupported = unsupported
    }

    public var description: String { "\(status): \(message)" }
}
