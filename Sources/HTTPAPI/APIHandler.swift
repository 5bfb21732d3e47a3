import Foundation
import OpenAPIRuntime
import PrintModel
import Spooler
import Store
import Templates

/// The API's operations, as the generated server calls them (the contract is
/// `openapi.json`). Jobs go through the same `JobIntake` as the folders and
/// the command line; errors are thrown as `APIProblem`s, which
/// `ProblemMiddleware` answers with.
struct APIHandler: APIProtocol {
    let intake: JobIntake
    let journal: EventJournal
    /// The event streams open now, by token.
    let streams: OpenStreams
    let maxBody: Int
    /// The Prometheus text the agent's metrics make now; nil when none are kept.
    let metrics: (@Sendable () async -> String)?
    var store: KioskStore { intake.store }

    /// The longest Idempotency-Key taken, in characters (the README's promise).
    static let maximumIdempotencyKey = 200

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .plainText("ok\n")))
    }

    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        do { _ = try await store.queueDepth() } catch {
            throw APIProblem(.serviceUnavailable, "The agent cannot read its queue: \(store.explain(error))")
        }
        return .ok(.init(body: .plainText("ready\n")))
    }

    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        guard let metrics else { throw APIProblem(.notFound, "This agent keeps no metrics.") }
        return .ok(.init(body: .plainText(HTTPBody(await metrics()))))
    }

    // MARK: Jobs

    func submitJob(_ input: Operations.SubmitJob.Input) async throws -> Operations.SubmitJob.Output {
        if let key = input.headers.idempotencyKey, !(1...Self.maximumIdempotencyKey).contains(key.count) {
            throw APIProblem(.badRequest, "The Idempotency-Key is \(key.count) characters; it must be 1 to "
                + "\(Self.maximumIdempotencyKey) (a sale or order number, or a UUID).", field: "Idempotency-Key")
        }
        let submission = try await JobSubmission(input, maxBody: maxBody)
        let idempotency = input.headers.idempotencyKey.map { key in
            IdempotencyKey(caller: APICaller.token?.name ?? "", key: key, requestSHA256: submission.fingerprint)
        }
        if let idempotency, let earlier = try await earlierJob(idempotency) { return .ok(.init(body: .json(JobView.make(earlier)))) }
        do {
            let job = try await submission.queue(through: intake, idempotency: idempotency)
            CreatedJob.current?.id.withLock { $0 = job.id.rawValue }
            return .created(.init(body: .json(JobView.make(job))))
        } catch {
            // Two requests with one key at once: the database kept the first; this is its retry.
            if let idempotency, let earlier = try await earlierJob(idempotency) { return .ok(.init(body: .json(JobView.make(earlier)))) }
            throw error.kind == .refused ? APIProblem(.unprocessableContent, error.message)
                                         : APIProblem(.serviceUnavailable, error.message + " Try again shortly.")
        }
    }

    /// The job an earlier request with the same key queued; a key reused for another request is refused.
    private func earlierJob(_ idempotency: IdempotencyKey) async throws -> PrintJob? {
        let found: (job: PrintJob, requestSHA256: String?)?
        do { found = try await store.job(idempotencyKey: idempotency.key) } catch {
            throw APIProblem(.serviceUnavailable, "The queue could not be read: \(store.explain(error)) Try again shortly.")
        }
        guard let found else { return nil }
        guard found.requestSHA256 == idempotency.requestSHA256 else {
            throw APIProblem(.unprocessableContent, "This Idempotency-Key was used for another request (job \(found.job.id)). "
                + "Use a new key for a new job; send the same key only to retry the same request.", field: "Idempotency-Key")
        }
        return found.job
    }

    func listJobs(_ input: Operations.ListJobs.Input) async throws -> Operations.ListJobs.Output {
        let filter: KioskStore.JobFilter = switch input.query.state {
        case nil, .all: .all
        case .unfinished: .unfinished
        case let state?: .states([JobState(rawValue: state.rawValue) ?? .queued])
        }
        let role = try input.query.role.map { text in
            do { return try Role(text) } catch { throw APIProblem(.badRequest, "\(error)", field: "role") }
        }
        let limit = input.query.limit ?? 50
        guard (1...500).contains(limit) else { throw APIProblem(.badRequest, "limit must be 1 to 500, not \(limit).", field: "limit") }
        let before = input.query.before.map { JobID($0) }
        let jobs = try await storeCall { try await store.jobs(filter, role: role, limit: limit, before: before) }
        return .ok(.init(body: .json(.init(jobs: jobs.map(JobView.make),
                                           next: jobs.count == limit ? jobs.last?.id.rawValue : nil))))
    }

    func getJob(_ input: Operations.GetJob.Input) async throws -> Operations.GetJob.Output {
        .ok(.init(body: .json(JobView.make(try await storeCall { try await store.job(JobID(input.path.id)) }))))
    }

    func cancelJob(_ input: Operations.CancelJob.Input) async throws -> Operations.CancelJob.Output {
        try await checkOwnJob(JobID(input.path.id), doing: "cancel")
        let outcome = try await storeCall { try await JobCanceller(store: store).cancel(JobID(input.path.id)) }
        let job: PrintJob = switch outcome {
        case .canceled(let job), .marked(let job), .canceledAtPrinter(let job, _), .printerDidNotAnswer(let job, _): job
        }
        return .ok(.init(body: .json(JobView.make(job))))
    }

    func retryJob(_ input: Operations.RetryJob.Input) async throws -> Operations.RetryJob.Output {
        try await checkOwnJob(JobID(input.path.id), doing: "retry")
        return .ok(.init(body: .json(JobView.make(try await storeCall { try await store.retry(JobID(input.path.id)) }))))
    }

    func streamEvents(_ input: Operations.StreamEvents.Input) async throws -> Operations.StreamEvents.Output {
        guard let token = APICaller.token else { throw APIProblem(.unauthorized, "An event stream needs a token.") }
        let key = try streams.admit(token)
        let subscription = journal.subscribe(after: input.headers.lastEventID, onEnd: { [streams] in streams.release(key) })
        streams.attach(key, end: subscription.end)
        return .ok(.init(body: .textEventStream(EventStream.body(subscription, capacity: journal.capacity))))
    }

    func renderPreview(_ input: Operations.RenderPreview.Input) async throws -> Operations.RenderPreview.Output {
        guard case .json(let request) = input.body else { throw APIProblem(.unsupportedMediaType, "Send the request as JSON.") }
        let drawing = try await PreviewRenderer(intake: intake).draw(request)
        let cuts = drawing.cutLengths.map { String($0.hundredthsOfMillimetre) }.joined(separator: ",")
        let body = HTTPBody(drawing.bytes)
        return .ok(.init(headers: .init(cutLengths: cuts), body: request.format == .pdf ? .pdf(body) : .png(body)))
    }

    // MARK: Printers and templates

    func listPrinters(_ input: Operations.ListPrinters.Input) async throws -> Operations.ListPrinters.Output {
        let assignments = try await storeCall { try await store.assignments() }
        let roles = Dictionary(grouping: assignments, by: \.role).sorted { $0.key.name < $1.key.name }
        return .ok(.init(body: .json(roles.map { role, held in
            .init(role: role.name, printers: held.sorted { $0.position < $1.position }.map(PrinterView.make))
        })))
    }

    func listTemplates(_ input: Operations.ListTemplates.Input) async throws -> Operations.ListTemplates.Output {
        .ok(.init(body: .json(intake.catalog.all().map { source in
            .init(name: source.name, builtIn: source.origin == .builtIn, path: source.origin == .builtIn ? nil : source.file)
        })))
    }

    func getTemplate(_ input: Operations.GetTemplate.Input) async throws -> Operations.GetTemplate.Output {
        let source: TemplateSource
        do { source = try intake.catalog.find(input.path.name) } catch {
            throw APIProblem(.notFound, "\(error)", field: "name")
        }
        let sample = try source.sampleData.map { text in
            try JSONDecoder().decode(Components.Schemas.TemplateDetail.SampleDataPayload.self, from: Data(text.utf8))
        }
        return .ok(.init(body: .json(.init(name: source.name, builtIn: source.origin == .builtIn, markup: source.text,
                                           sampleData: sample))))
    }

    /// A `print` token acts on the jobs it submitted only; an `admin` token on any.
    private func checkOwnJob(_ id: JobID, doing action: String) async throws {
        guard let token = APICaller.token, !token.allows(.admin) else { return }
        let submitter = try await storeCall { try await store.submitter(of: id) }
        guard submitter == token.name else {
            throw APIProblem(.forbidden, "Job \(id) was not submitted with the token \"\(token.name)\", and a print token may "
                + "\(action) only the jobs it submitted. Ask an administrator (a token with the admin scope, or "
                + "`kioskprint jobs \(action) \(id)` on the kiosk).")
        }
    }

    /// Runs a store call, answering its errors as the problems they are.
    private func storeCall<T: Sendable>(_ call: () async throws -> T) async throws -> T {
        do { return try await call() } catch let error as StoreError {
            switch error {
            case .jobNotFound: throw APIProblem(.notFound, "\(error)")
            case .jobFinished, .notRetryable: throw APIProblem(.conflict, "\(error)")
            default: throw APIProblem(.serviceUnavailable, "\(store.explain(error)) Try again shortly.")
            }
        } catch let problem as APIProblem {
            throw problem
        } catch {
            throw APIProblem(.serviceUnavailable, "\(store.explain(error)) Try again shortly.")
        }
    }
}
