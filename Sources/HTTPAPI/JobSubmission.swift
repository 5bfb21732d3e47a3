import Crypto
import Foundation
import OpenAPIRuntime
import PrintModel
import Spooler
import Store

/// What `POST /v1/jobs` asked for, read off the request: a template with its
/// data, or a file's bytes, with the SHA-256 an Idempotency-Key is checked against.
struct JobSubmission: Sendable {
    enum Content: Sendable {
        case template(name: String, dataJSON: String, openDrawer: Bool)
        case file(Data, extension: String)
    }

    var content: Content
    var role: Role
    var name: String?
    var copies: Int
    var fingerprint: String

    /// What messages call the body.
    static let bodyName = "request body"

    init(_ input: Operations.SubmitJob.Input, maxBody: Int) async throws {
        func role(_ text: String?, field: String) throws -> Role {
            guard let text else {
                throw APIProblem(.badRequest, "A file job needs its role: add ?role=NAME to the address, e.g. /v1/jobs?role=receipt.",
                                 field: field)
            }
            do { return try Role(text) } catch { throw APIProblem(.unprocessableContent, "\(error)", field: field) }
        }
        switch input.body {
        case .json(let job):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(job.data?.additionalProperties ?? OpenAPIObjectContainer())
            content = .template(name: job.template, dataJSON: String(decoding: data, as: UTF8.self), openDrawer: job.openDrawer ?? false)
            self.role = try role(job.role, field: "role")
            name = job.name
            copies = job.copies ?? 1
            fingerprint = Self.sha256(try encoder.encode(job))
        case .pdf(let body), .png(let body), .jpeg(let body):
            let bytes = try await Data(collecting: body, upTo: maxBody)
            let kind: String = switch input.body { case .pdf: "pdf"; case .png: "png"; default: "jpg" }
            content = .file(bytes, extension: kind)
            self.role = try role(input.query.role, field: "role")
            name = input.query.name
            copies = input.query.copies ?? 1
            fingerprint = Self.sha256(bytes + Data("\u{1F}\(input.query.role ?? "")\u{1F}\(name ?? "")\u{1F}\(copies)".utf8))
        }
        guard (1...99).contains(copies) else { throw APIProblem(.unprocessableContent, "copies must be 1 to 99, not \(copies).", field: "copies") }
    }

    /// The token sending the request: the job is recorded as its own.
    private var submitter: String? { APICaller.token?.name }

    /// Queues it through the intake every other way in uses.
    func queue(through intake: JobIntake, idempotency: IdempotencyKey?) async throws(IntakeError) -> PrintJob {
        switch content {
        case .template(let template, let dataJSON, let openDrawer):
            return try await intake.queueTemplate(template, dataJSON: dataJSON, dataFile: Self.bodyName, role: role,
                                                  jobName: name, copies: copies, opensDrawer: openDrawer, idempotency: idempotency,
                                                  submittedBy: submitter)
        case .file(let bytes, let kind):
            // Written once, straight into the spool folder, and checked there.
            return try await intake.queueDocument(Data(bytes), named: "upload.\(kind)", role: role, jobName: name ?? "upload.\(kind)",
                                                  copies: copies, idempotency: idempotency, submittedBy: submitter)
        }
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
