import Foundation
@testable import HTTPAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskConfiguration
import NIOCore
import PrintModel
import PrinterLanguages
import Spooler
import Store
import Templates
import Testing

/// Each route's handler answered in this process through HummingbirdTesting's
/// router client: the agent's own router with every guard, a real SQLite
/// file and real tokens, no listener and no printer (jobs stay queued). The
/// curl tests in CLITests drive the same routes through a running agent.
@Suite struct HandlerTests {
    /// An API over a fresh database, with a token of each scope.
    struct Kiosk {
        let app: Application<RouterResponder<BasicRequestContext>>
        let store: KioskStore
        let folder: String
        let till: String, otherTill: String, screen: String, admin: String
    }

    static func kiosk(settings: HTTPSettings = HTTPSettings(), rawDelivery: [Role: RawDelivery] = [:]) async throws -> Kiosk {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-handlers-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try KioskStore(path: folder + "/kioskprint.sqlite")
        let till = try await store.addToken(name: "till-1", scopes: [.print]).secret
        let otherTill = try await store.addToken(name: "till-2", scopes: [.print]).secret
        let screen = try await store.addToken(name: "screen", scopes: [.read]).secret
        let admin = try await store.addToken(name: "office", scopes: [.admin]).secret
        let preparer = DocumentPreparer(catalog: TemplateCatalog(), drawnAhead: DrawnDocuments(), rawDelivery: rawDelivery)
        let intake = JobIntake(store: store, catalog: TemplateCatalog(), preparer: preparer)
        let server = APIServer(settings: settings, intake: intake.checkingOnly,
                               journal: EventJournal(), box: "test", logger: .init(label: "test"))
        let router = try server.makeRouter(limiter: RateLimiter(perSecond: settings.rateLimit), loopbackOnly: true, secure: false)
        return Kiosk(app: Application(router: router), store: store, folder: folder,
                     till: till, otherTill: otherTill, screen: screen, admin: admin)
    }

    static func headers(_ token: String?, json: Bool = false, key: String? = nil) -> HTTPFields {
        var fields = HTTPFields()
        if let token { fields[.authorization] = "Bearer \(token)" }
        if json { fields[.contentType] = "application/json" }
        if let key, let name = HTTPField.Name("Idempotency-Key") { fields[name] = key }
        return fields
    }

    static func object(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
    }

    /// The built-in receipt with its own sample data.
    static func receipt(_ name: String) throws -> ByteBuffer {
        let data = try TemplateCatalog().find("receipt").sampleData ?? "{}"
        return ByteBuffer(string: #"{"template":"receipt","role":"receipt","name":"\#(name)","data":\#(data)}"#)
    }

    @Test func aJobIsQueuedOnceUnderItsKeyAndReadBack() async throws {
        let kiosk = try await Self.kiosk()
        defer { try? FileManager.default.removeItem(atPath: kiosk.folder) }
        try await kiosk.app.test(.router) { client in
            let posted = try await client.execute(uri: "/v1/jobs", method: .post,
                                                  headers: Self.headers(kiosk.till, json: true, key: "sale-1"), body: try Self.receipt("Sale 1"))
            #expect(posted.status == .created, "\(String(buffer: posted.body))")
            let id = try #require(Self.object(posted)["id"] as? Int)
            #expect(posted.headers[.location] == "/v1/jobs/\(id)")
            #expect(Self.object(posted)["state"] as? String == "queued")

            let again = try await client.execute(uri: "/v1/jobs", method: .post,
                                                 headers: Self.headers(kiosk.till, json: true, key: "sale-1"), body: try Self.receipt("Sale 1"))
            #expect(again.status == .ok && Self.object(again)["id"] as? Int == id)
            let reused = try await client.execute(uri: "/v1/jobs", method: .post,
                                                  headers: Self.headers(kiosk.till, json: true, key: "sale-1"), body: try Self.receipt("Sale 2"))
            #expect(reused.status == .unprocessableContent && reused.headers[.contentType] == "application/problem+json")

            let read = try await client.execute(uri: "/v1/jobs/\(id)", method: .get, headers: Self.headers(kiosk.screen))
            #expect(read.status == .ok && Self.object(read)["name"] as? String == "Sale 1" && Self.object(read)["role"] as? String == "receipt")
            let page = try await client.execute(uri: "/v1/jobs?limit=10", method: .get, headers: Self.headers(kiosk.screen))
            #expect((Self.object(page)["jobs"] as? [[String: Any]])?.count == 1)
        }
        #expect(try await kiosk.store.jobs(includeFinished: true).count == 1)
    }

    @Test func aTillCancelsItsOwnJobsAndAnAdminAnyone() async throws {
        let kiosk = try await Self.kiosk()
        defer { try? FileManager.default.removeItem(atPath: kiosk.folder) }
        try await kiosk.app.test(.router) { client in
            let posted = try await client.execute(uri: "/v1/jobs", method: .post, headers: Self.headers(kiosk.till, json: true),
                                                  body: try Self.receipt("Sale 1"))
            let id = try #require(Self.object(posted)["id"] as? Int)
            let byOther = try await client.execute(uri: "/v1/jobs/\(id)/cancel", method: .post, headers: Self.headers(kiosk.otherTill))
            #expect(byOther.status == .forbidden, "\(String(buffer: byOther.body))")
            let byScreen = try await client.execute(uri: "/v1/jobs/\(id)/cancel", method: .post, headers: Self.headers(kiosk.screen))
            #expect(byScreen.status == .forbidden)
            #expect(try await kiosk.store.job(JobID(Int64(id))).state == .queued, "still on its way after the refusals")

            let byAdmin = try await client.execute(uri: "/v1/jobs/\(id)/cancel", method: .post, headers: Self.headers(kiosk.admin))
            #expect(byAdmin.status == .ok && Self.object(byAdmin)["state"] as? String == "canceled", "\(String(buffer: byAdmin.body))")
            let twice = try await client.execute(uri: "/v1/jobs/\(id)/cancel", method: .post, headers: Self.headers(kiosk.admin))
            #expect(twice.status == .conflict)
            let missing = try await client.execute(uri: "/v1/jobs/999/cancel", method: .post, headers: Self.headers(kiosk.admin))
            #expect(missing.status == .notFound)
        }
    }

    @Test func badRequestsAreProblemsAndQueueNothing() async throws {
        var settings = HTTPSettings()
        settings.maxBody = 64 * 1024
        let kiosk = try await Self.kiosk(settings: settings)
        defer { try? FileManager.default.removeItem(atPath: kiosk.folder) }
        try await kiosk.app.test(.router) { client in
            let anonymous = try await client.execute(uri: "/v1/jobs", method: .get, headers: Self.headers(nil))
            #expect(anonymous.status == .unauthorized && anonymous.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            let readOnly = try await client.execute(uri: "/v1/jobs", method: .post, headers: Self.headers(kiosk.screen, json: true),
                                                    body: try Self.receipt("x"))
            #expect(readOnly.status == .forbidden)
            let malformed = try await client.execute(uri: "/v1/jobs", method: .post, headers: Self.headers(kiosk.till, json: true),
                                                     body: ByteBuffer(string: "{\n  \"template\": \"receipt\",\n  \"role\": \"receipt\",\n}"))
            #expect(malformed.status == .badRequest && Self.object(malformed)["line"] as? Int == 4, "\(String(buffer: malformed.body))")
            let unknown = try await client.execute(uri: "/v1/jobs", method: .post, headers: Self.headers(kiosk.till, json: true),
                                                   body: ByteBuffer(string: #"{"template":"no-such","role":"receipt","data":{}}"#))
            #expect(unknown.status == .unprocessableContent && (Self.object(unknown)["detail"] as? String)?.contains("no-such") == true)
            let noRole = try await client.execute(uri: "/v1/jobs", method: .post, headers: Self.headers(kiosk.till, json: true),
                                                  body: ByteBuffer(string: #"{"template":"receipt"}"#))
            #expect(noRole.status == .badRequest)
            let large = ByteBuffer(string: #"{"template":"receipt","role":"receipt","data":{"x":""# + String(repeating: "a", count: 70_000) + #""}}"#)
            let tooLarge = try await client.execute(uri: "/v1/jobs", method: .post, headers: Self.headers(kiosk.till, json: true), body: large)
            #expect(tooLarge.status == .contentTooLarge)
            let badLimit = try await client.execute(uri: "/v1/jobs?limit=5000", method: .get, headers: Self.headers(kiosk.screen))
            #expect(badLimit.status == .badRequest && badLimit.headers[.contentType] == "application/problem+json")
            let missing = try await client.execute(uri: "/v1/jobs/999", method: .get, headers: Self.headers(kiosk.screen))
            #expect(missing.status == .notFound)
        }
        #expect(try await kiosk.store.jobs(includeFinished: true).isEmpty)
    }

    @Test func templatesArePreviewedAndListedByName() async throws {
        let kiosk = try await Self.kiosk()
        defer { try? FileManager.default.removeItem(atPath: kiosk.folder) }
        try await kiosk.app.test(.router) { client in
            let list = try await client.execute(uri: "/v1/templates", method: .get, headers: Self.headers(kiosk.screen))
            #expect(list.status == .ok && String(buffer: list.body).contains("\"receipt\""))
            let one = try await client.execute(uri: "/v1/templates/receipt", method: .get, headers: Self.headers(kiosk.screen))
            #expect(one.status == .ok)
            let none = try await client.execute(uri: "/v1/templates/no-such", method: .get, headers: Self.headers(kiosk.screen))
            #expect(none.status == .notFound)

            // A preview draws, so it takes a print token; the receipt's own sample data fills it.
            let sample = try TemplateCatalog().find("receipt").sampleData ?? "{}"
            let png = try await client.execute(uri: "/v1/render", method: .post, headers: Self.headers(kiosk.till, json: true),
                                               body: ByteBuffer(string: #"{"template":"receipt","data":\#(sample)}"#))
            #expect(png.status == .ok && png.headers[.contentType] == "image/png", "\(String(buffer: png.body).prefix(300))")
            #expect(Array(buffer: png.body).prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let pdf = try await client.execute(uri: "/v1/render", method: .post, headers: Self.headers(kiosk.till, json: true),
                                               body: ByteBuffer(string: #"{"template":"receipt","format":"pdf","data":\#(sample)}"#))
            #expect(pdf.status == .ok && String(buffer: pdf.body).hasPrefix("%PDF-"))
        }
    }

    /// A preview for a role whose receipt printer gets its text as text
    /// (`delivery = "native"`) shows that text in the printer's font: the
    /// PNG differs from the raster role's, the cut is the same.
    @Test func aNativeRolesPreviewShowsThePrintersFont() async throws {
        var pictures: [RawDelivery: (png: [UInt8], cuts: String?)] = [:]
        for delivery in [RawDelivery.native, .raster] {
            let kiosk = try await Self.kiosk(rawDelivery: [try Role("receipt"): delivery])
            defer { try? FileManager.default.removeItem(atPath: kiosk.folder) }
            let capabilities = try ModelCatalog.profile(model: "TM-T20III").capabilities(name: "till printer")
            _ = try await kiosk.store.assign(uri: "socket://127.0.0.1:9", serviceName: nil, capabilities: capabilities,
                                             to: try Role("receipt"), as: .primary)
            let sample = try TemplateCatalog().find("receipt").sampleData ?? "{}"
            pictures[delivery] = try await kiosk.app.test(.router) { client in
                let png = try await client.execute(uri: "/v1/render", method: .post, headers: Self.headers(kiosk.till, json: true),
                                                   body: ByteBuffer(string: #"{"template":"receipt","role":"receipt","data":\#(sample)}"#))
                #expect(png.status == .ok && png.headers[.contentType] == "image/png", "\(String(buffer: png.body).prefix(300))")
                return (Array(buffer: png.body), png.headers[HTTPField.Name("Cut-Lengths")!])
            }
        }
        let native = try #require(pictures[.native]), raster = try #require(pictures[.raster])
        #expect(native.png != raster.png, "the native role's preview shows the printer's font")
        #expect(native.cuts != nil && native.cuts == raster.cuts)
    }

    @Test func healthNeedsNoTokenAndPrintersNeedOne() async throws {
        let kiosk = try await Self.kiosk()
        defer { try? FileManager.default.removeItem(atPath: kiosk.folder) }
        try await kiosk.app.test(.router) { client in
            #expect(try await client.execute(uri: "/healthz", method: .get, headers: [:]).status == .ok)
            #expect(try await client.execute(uri: "/v1/printers", method: .get, headers: [:]).status == .unauthorized)
            let printers = try await client.execute(uri: "/v1/printers", method: .get, headers: Self.headers(kiosk.screen))
            #expect(printers.status == .ok, "\(String(buffer: printers.body))")
        }
    }
}
