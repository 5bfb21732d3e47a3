import Foundation
import HTTPAPI
import HTTPAPIInProcess
import HTTPTypes
import KioskConfiguration
import Logging
import Spooler
import Store
import Templates

/// The API's request path, driven in process: each input is one request
/// (`METHOD TARGET`, header lines, a blank line, the body) answered by the
/// agent's routes and guards over a real SQLite file, with a `print` and a
/// `read` token whose secrets an input names as `kp_FUZZ_PRINT` and
/// `kp_FUZZ_READ`. A crash, a hang or a runaway allocation is a finding; any
/// answer is fine.
enum HTTPRequestReader {
    struct Kiosk: Sendable {
        let api: InProcessAPI
        let secrets: [(placeholder: Data, secret: Data)]
    }

    /// Made once per process: a store in a folder of its own, removed at exit by the system's temporary cleaner.
    static let kiosk: Kiosk? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-fuzz-http-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return wait {
            guard let store = try? KioskStore(path: folder + "/kioskprint.sqlite"),
                  let print = try? await store.addToken(name: "fuzz-print", scopes: [.print]),
                  let read = try? await store.addToken(name: "fuzz-read", scopes: [.read]) else { return nil }
            var settings = HTTPSettings()
            settings.maxBody = 65_536
            settings.allowedOrigins = ["https://pos.example.com"]
            let server = APIServer(settings: settings, intake: JobIntake(store: store, catalog: TemplateCatalog()),
                                   journal: EventJournal(), box: "fuzz", logger: Logger(label: "fuzz"))
            guard let api = try? InProcessAPI(server: server) else { return nil }
            return Kiosk(api: api, secrets: [(Data("kp_FUZZ_PRINT".utf8), Data(print.secret.utf8)),
                                             (Data("kp_FUZZ_READ".utf8), Data(read.secret.utf8))])
        }
    }()

    static func respond(_ data: Data) {
        guard let kiosk else { return }
        var bytes = data
        for (placeholder, secret) in kiosk.secrets {
            while let range = bytes.range(of: placeholder) { bytes.replaceSubrange(range, with: secret) }
        }
        guard let (head, body) = InProcessAPI.request(from: bytes) else { return }
        _ = wait { await kiosk.api.respond(head, body: body) }
    }
}
