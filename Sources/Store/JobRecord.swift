import Foundation
import GRDB
import PrintModel

/// A row of the `job` table. Internal: callers see `PrintJob`.
struct JobRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "job"
    var id: Int64?
    var name: String
    var role: String
    var contentKind: String
    var templateName: String?
    var templateData: String?
    var documentPath: String?
    var documentFormat: String?
    var copies: Int
    var state: String
    var createdAt: Date
    var updatedAt: Date
    var printerId: Int64?
    var printerName: String?
    var printerUri: String?
    var printerJobId: Int?
    var attempts: Int
    var nextAttemptAt: Date?
    var lastError: String?
    var stateReasons: String
    var impressionsCompleted: Int
    var pagesExpected: Int?
    var cutLengths: String?
    var marker: String
    var cancelRequested: Bool
    var completedAt: Date?
    var claimedBy: String?
    var claimExpiresAt: Date?
    /// Where the job came from, e.g. a claimed file's path, so a trigger
    /// interrupted after queueing can see it already did.
    var source: String?
    var opensDrawer: Bool
    /// The API caller's Idempotency-Key (scoped by its token) and the SHA-256
    /// of the request that queued the job; nil for jobs from elsewhere.
    var idempotencyKey: String?
    var requestSHA256: String?
    /// The name of the API token that submitted the job; nil for jobs from
    /// elsewhere (folders, buttons, the command line). A `print` token may
    /// cancel or retry only its own jobs.
    var submittedBy: String?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// A new queued job; the marker is set once the id is known.
    init(name: String, role: Role, content: JobContent, copies: Int, at date: Date, marker: String) {
        self.name = name
        self.role = role.name
        switch content {
        case .template(let template, let data):
            contentKind = "template"; templateName = template; templateData = data
        case .document(let path, let format):
            contentKind = "document"; documentPath = path; documentFormat = format
        case .unreadable(let kind):
            contentKind = kind  // refused by enqueue's checks before it gets here
        }
        self.copies = copies
        state = JobState.queued.rawValue
        createdAt = date
        updatedAt = date
        attempts = 0
        stateReasons = "[]"
        impressionsCompleted = 0
        self.marker = marker
        cancelRequested = false
        opensDrawer = false
    }

    var jobID: JobID { JobID(id ?? 0) }

    /// The stored state; an unknown word (from a newer KioskPrint) is an error.
    func jobState() throws(StoreError) -> JobState {
        guard let parsed = JobState(rawValue: state) else {
            throw StoreError.corruptJob(jobID, reason: "unknown state '\(state)'")
        }
        return parsed
    }

    var printer: JobPrinter? {
        get {
            guard let printerId, let printerName, let printerUri else { return nil }
            return JobPrinter(id: printerId, name: printerName, uri: printerUri)
        }
        set {
            printerId = newValue?.id; printerName = newValue?.name; printerUri = newValue?.uri
        }
    }

    /// The job, for work on it: a row this version cannot read is an error
    /// (a set-aside one is read as well as it can be).
    func job() throws(StoreError) -> PrintJob {
        do { return try readJob() } catch {
            guard state == JobState.setAside.rawValue else { throw error }
            return readAsWellAsItCan(error)
        }
    }

    /// The job, for lists and `jobs show`: a row this version cannot read is
    /// shown as well as it can be, never a reason for a whole list to fail.
    func listedJob() -> PrintJob {
        do { return try readJob() } catch { return readAsWellAsItCan(error) }
    }

    private func readAsWellAsItCan(_ error: StoreError) -> PrintJob {
        let known = JobState(rawValue: state)
        return PrintJob(id: jobID, name: name, role: (try? Role(role)) ?? Self.unknownRole,
                        content: .unreadable(kind: contentKind), copies: copies, state: known ?? .setAside,
                        createdAt: createdAt, updatedAt: updatedAt,
                        lastError: known == .setAside ? lastError : "This version cannot read it: \(error)",
                        marker: marker, completedAt: completedAt)
    }

    /// The role a set-aside row is listed under when its own cannot be read.
    static let unknownRole = try! Role("unknown")

    private func readJob() throws(StoreError) -> PrintJob {
        let id = jobID
        let content: JobContent
        switch contentKind {
        case "template":
            content = .template(name: templateName ?? "", dataJSON: templateData ?? "{}")
        case "document":
            content = .document(path: documentPath ?? "", format: documentFormat ?? "")
        default:
            throw StoreError.corruptJob(id, reason: "unknown content kind '\(contentKind)'")
        }
        let parsedRole: Role
        do { parsedRole = try Role(role) } catch {
            throw StoreError.corruptJob(id, reason: "\(error)")
        }
        var cuts: [Int]?
        if let cutLengths {
            cuts = cutLengths == "[]" ? [] : try Self.decode([Int].self, from: cutLengths, job: id, field: "cutLengths")
        }
        // Nearly every row says "[]": no JSONDecoder for it.
        let reasons = stateReasons == "[]" ? []
            : try Self.decode([String].self, from: stateReasons, job: id, field: "stateReasons")
        return PrintJob(
            id: id, name: name, role: parsedRole, content: content, copies: copies, state: try jobState(),
            createdAt: createdAt, updatedAt: updatedAt, printer: printer, printerJobID: printerJobId,
            attempts: attempts, nextAttemptAt: nextAttemptAt, lastError: lastError,
            stateReasons: reasons,
            impressionsCompleted: impressionsCompleted, pagesExpected: pagesExpected,
            cutLengths: cuts,
            marker: marker, cancelRequested: cancelRequested, completedAt: completedAt,
            claimedBy: claimedBy, claimExpiresAt: claimExpiresAt, opensDrawer: opensDrawer)
    }

    static func encode(_ value: some Encodable) -> String {
        // Arrays of strings and numbers always encode.
        String(decoding: try! PrinterRecord.encoder.encode(value), as: UTF8.self)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from json: String, job: JobID,
                                             field: String) throws(StoreError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(json.utf8))
        } catch {
            throw StoreError.corruptJob(job, reason: "\(field) is not a JSON list: \(error)")
        }
    }
}
