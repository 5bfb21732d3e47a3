public import Foundation

/// One job a recording printer received, as ippeveprinter handed it to its
/// `-c` command: the job's attributes and the document, byte for byte.
public struct ReceivedJob: Sendable, Hashable {
    /// The printer's job-id (`IPP_JOB_ID`).
    public var jobID: Int
    /// The job-name as the client sent it (`IPP_JOB_NAME` with ippAttributeString's
    /// backslash escapes removed).
    public var jobName: String
    /// Every `IPP_*` variable as ippeveprinter set it, e.g. `IPP_MEDIA_COL` =
    /// `{media-size={x-dimension=8000 y-dimension=12345} media-source=main-roll}`,
    /// `IPP_FINISHINGS` = `trim-after-pages` (enum values come as keywords),
    /// `IPP_COPIES`, `IPP_DOCUMENT_FORMAT_SUPPLIED`.
    public var attributes: [String: String]
    /// The document's `CONTENT_TYPE`, e.g. `image/pwg-raster`.
    public var documentFormat: String?
    /// Where the recording keeps the document.
    public var documentPath: URL
    public var documentSize: Int
    /// Pages the raster document's header announced (PWG TotalPageCount, URF
    /// page count); 0 for other formats or when the header does not say.
    public var pages: Int

    /// The document's bytes.
    public func document() throws -> Data { try Data(contentsOf: documentPath) }

    /// Reads a record the recording script wrote: NUL-separated `NAME=value` entries.
    init(record: Data, path: String) throws {
        var values: [String: String] = [:]
        for entry in record.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            values[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        // The record holds the script's whole environment (env -0); only IPP_* and CONTENT_TYPE are the job's.
        guard let id = values["IPP_JOB_ID"].flatMap({ Int($0) }),
              let document = values["KIOSKPRINT_DOCUMENT"],
              let size = (try? FileManager.default.attributesOfItem(atPath: document))?[.size] as? Int
        else {
            throw RecordingError.unreadableRecord(path: path, reason: "it lacks IPP_JOB_ID or the document entry, or the document is gone")
        }
        jobID = id
        jobName = Self.unescaped(values["IPP_JOB_NAME"] ?? "")
        attributes = values.filter { $0.key.hasPrefix("IPP_") }
        documentFormat = values["CONTENT_TYPE"]
        documentPath = URL(fileURLWithPath: document)
        documentSize = size
        pages = values["KIOSKPRINT_PAGES"].flatMap { Int($0) } ?? 0
    }

    /// Undoes ippAttributeString's escaping: a backslash stands before `\`, `"` and `[`.
    static func unescaped(_ value: String) -> String {
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                result.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// Why a recording printer's jobs cannot be read, or its paper not changed.
public enum RecordingError: Error, CustomStringConvertible {
    /// The printer was not started from `SimulatedPrinter.recording(...)`.
    case notRecording(printer: String)
    case unreadableRecord(path: String, reason: String)
    /// ippeveprinter's /media form did not take the change.
    case mediaFormFailed(printer: String, detail: String)

    public var description: String {
        switch self {
        case .notRecording(let printer):
            "'\(printer)' does not record its jobs: start it from SimulatedPrinter.recording(...)."
        case .unreadableRecord(let path, let reason):
            "The job record \(path) cannot be read: \(reason). The recording script or ippeveprinter changed; "
                + "look at the file and the printer's log in the lab folder."
        case .mediaFormFailed(let printer, let detail):
            "'\(printer)' did not take the paper change through its /media page: \(detail). The attribute file "
                + "needs media-ready, media-col-ready, media-source-supported, media-type-supported and one "
                + "octetString printer-input-tray per media source."
        }
    }
}

extension RunningPrinter {
    /// Where a recording printer keeps what it received.
    public var receivedDirectory: URL { Self.received(in: spoolDirectory) }

    static func received(in spool: URL) -> URL { spool.appendingPathComponent("received") }

    /// Every job recorded so far, by job id.
    public func receivedJobs() throws -> [ReceivedJob] {
        let folder = receivedDirectory
        guard simulated.recording != nil, FileManager.default.fileExists(atPath: folder.path) else {
            throw RecordingError.notRecording(printer: name)
        }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("job-") && $0.hasSuffix(".record") }
            .map { file in
                let path = folder.appendingPathComponent(file).path
                return try ReceivedJob(record: try Data(contentsOf: URL(fileURLWithPath: path)), path: path)
            }
            .sorted { $0.jobID < $1.jobID }
    }

    /// Waits until at least `count` jobs are recorded and returns them all;
    /// throws `LabError.timedOut` if `limit` passes first. The wait ends on the
    /// records themselves, checked every 20 ms.
    public func receivedJobs(atLeast count: Int, within limit: Duration = .seconds(10)) async throws -> [ReceivedJob] {
        var latest: [ReceivedJob] = []
        var failure: (any Error)?
        let arrived = await pollUntil(within: limit, every: .milliseconds(20)) {
            do {
                latest = try receivedJobs()
            } catch {
                failure = error
                return true
            }
            return latest.count >= count
        }
        if let failure { throw failure }
        guard arrived else {
            throw LabError.timedOut("\(count) job(s) at '\(name)' (\(latest.count) recorded within \(limit))")
        }
        return latest
    }
}
