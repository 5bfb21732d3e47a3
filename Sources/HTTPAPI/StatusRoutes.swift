import Foundation
import HTTPTypes
import Hummingbird
import PrintModel
import Spooler
import Store

/// The status page's routes: the page itself, each template job's preview,
/// and the administrator's buttons, which answer with a redirect back to
/// the page and a line saying what was done (or what went wrong).
struct StatusRoutes: Sendable {
    let intake: JobIntake
    let box: String
    let notices: StatusNotices
    var store: KioskStore { intake.store }

    /// The page's headers: never cached, never framed by another site (clickjacking
    /// its buttons), and nothing loaded but its own images.
    static var pageHeaders: HTTPFields {
        [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
         .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'",
         HTTPField.Name("X-Frame-Options")!: "DENY"]
    }

    func add(to router: Router<BasicRequestContext>) {
        router.get("/") { request, _ in
            let admin = APICaller.token?.allows(.admin) ?? false
            let notice = request.uri.queryParameters["done"].flatMap { notices.text(for: String($0)) }
            let html = try await StatusPage(store: store, box: box).html(admin: admin, notice: notice)
            return Response(status: .ok, headers: Self.pageHeaders, body: .init(byteBuffer: ByteBuffer(string: html)))
        }
        router.get("/ui/jobs/:id/preview.png") { _, context in
            let job = try await store.job(JobID(try context.parameters.require("id", as: Int64.self)))
            guard case .template(let name, let dataJSON) = job.content else {
                throw APIProblem(.notFound, "Job \(job.id) is not drawn from a template, so it has no preview.")
            }
            let drawing = try await PreviewRenderer(intake: intake).draw(template: name, data: Data(dataJSON.utf8),
                                                                        role: job.role.name, pdf: false)
            return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "max-age=3600"],
                            body: .init(byteBuffer: ByteBuffer(bytes: drawing.bytes)))
        }
        router.post("/ui/jobs/:id/retry") { _, context in
            let id = JobID(try context.parameters.require("id", as: Int64.self))
            return await redirect {
                let job = try await store.retry(id)
                return "Job \(job.id) \"\(job.name)\" is queued again."
            }
        }
        router.post("/ui/jobs/:id/cancel") { _, context in
            let id = JobID(try context.parameters.require("id", as: Int64.self))
            return await redirect {
                switch try await JobCanceller(store: store).cancel(id) {
                case .canceled(let job), .canceledAtPrinter(let job, _): return "Job \(job.id) \"\(job.name)\" is canceled."
                case .marked(let job), .printerDidNotAnswer(let job, _): return "Job \(job.id) is marked for canceling."
                }
            }
        }
        router.post("/ui/roles/:role/test-page") { _, context in
            let name = try context.parameters.require("role")
            return await redirect {
                let role = try Role(name)
                guard let printer = try await store.assignments(for: role).first(where: \.isPrimary)?.printer else {
                    return "No printer holds the role \(role)."
                }
                let job = try await store.enqueue(name: TestPage.jobName(role: role, printer: printer), role: role,
                                                  content: .template(name: TestPage.template,
                                                                     dataJSON: TestPage.dataJSON(role: role, printer: printer)))
                return "Test page queued as job \(job.id) for \(printer.name)."
            }
        }
    }

    /// 303 back to the page with what `action` did, or why it failed, as its notice.
    func redirect(_ action: () async throws -> String) async -> Response {
        let notice: String
        do { notice = try await action() } catch { notice = "Not done: \(error)" }
        return Response(status: .seeOther, headers: [.location: "/?done=\(notices.add(notice))"])
    }
}
