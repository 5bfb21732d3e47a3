import Foundation
@testable import HTTPAPI
import HTTPAPIInProcess
import HTTPTypes
import KioskConfiguration
import NIOCore
import Spooler
import Store
import Templates
import Testing

/// The API's request path in this process (`InProcessAPI`, what the fuzzer
/// drives): a real SQLite file, real tokens, every guard, no listener.
@Suite struct InProcessAPITests {
    struct Kiosk {
        let api: InProcessAPI
        let reader: String
        let folder: String
    }

    static func kiosk() async throws -> Kiosk {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-inprocess-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try KioskStore(path: folder + "/kioskprint.sqlite")
        let reader = try await store.addToken(name: "screen", scopes: [.read])
        let server = APIServer(settings: HTTPSettings(), intake: JobIntake(store: store, catalog: TemplateCatalog()),
                               journal: EventJournal(), box: "test", logger: .init(label: "test"))
        return Kiosk(api: try InProcessAPI(server: server), reader: reader.secret, folder: folder)
    }

    static func request(_ text: String) throws -> (HTTPRequest, ByteBuffer) {
        try #require(InProcessAPI.request(from: Data(text.utf8)))
    }

    @Test func aQueryStringThatDoesNotParseIsABadRequestNotAnError() async throws {
        let kiosk = try await Self.kiosk()
        defer { try? FileManager.default.removeItem(atPath: kiosk.folder) }
        let (head, body) = try Self.request("GET /v1/jobs?stalhost&&=x\nHost: 127.0.0.1\nAuthorization: Bearer \(kiosk.reader)\n\n")
        #expect(await kiosk.api.respond(head, body: body).status == 400)
        let (good, none) = try Self.request("GET /v1/jobs?limit=5\nHost: 127.0.0.1\nAuthorization: Bearer \(kiosk.reader)\n\n")
        #expect(await kiosk.api.respond(good, body: none).status == 200)
    }

    @Test func everyGuardAnswersBeforeAHandlerRuns() async throws {
        let kiosk = try await Self.kiosk()
        defer { try? FileManager.default.removeItem(atPath: kiosk.folder) }
        let cases: [(String, Int)] = [
            ("GET /healthz\nHost: localhost:9180\n\n", 200),
            ("GET //v1/jobs\nHost: 127.0.0.1\nAuthorization: Bearer \(kiosk.reader)\n\n", 404),
            ("GET /v1/jobs\nHost: evil.example\nAuthorization: Bearer \(kiosk.reader)\n\n", 421),
            ("GET /v1/jobs\nHost: 127.0.0.1\nOrigin: https://evil.example\nAuthorization: Bearer \(kiosk.reader)\n\n", 403),
            ("GET /v1/jobs\nHost: 127.0.0.1\n\n", 401),
            ("POST /v1/jobs\nHost: 127.0.0.1\nAuthorization: Bearer \(kiosk.reader)\n\n{}", 403),
            ("GET /v1/templates/%2Fetc%2Fpasswd\nHost: 127.0.0.1\nAuthorization: Bearer \(kiosk.reader)\n\n", 404),
        ]
        for (text, status) in cases {
            let (head, body) = try Self.request(text)
            #expect(await kiosk.api.respond(head, body: body).status == status, "\(text.split(separator: "\n").first ?? "")")
        }
    }
}
