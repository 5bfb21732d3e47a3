public import Foundation

/// Debian's Chromium, headless at a phone's size, as the demo and the status
/// page's tests use it: a page's DOM after its scripts ran, or a screenshot.
///
/// Chromium's new headless mode sometimes stays running after it has written
/// its answer (a known upstream hang; a CI run here saw it for 60 s). So the
/// answer counts once it is complete (the PNG's end chunk, the DOM's closing
/// tag), and the process is then stopped; a run that wrote nothing in time is
/// tried once more before it is a failure.
public struct HeadlessChromium: Sendable {
    /// Chromium's profile folder, created by Chromium itself.
    public var profile: String
    public var windowSize = (width: 390, height: 844)
    /// How long one run may take before it counts as hung.
    public var limit: Duration = .seconds(45)

    public init(profile: String) { self.profile = profile }

    /// Whether `chromium` is installed.
    public static var isInstalled: Bool { (try? ProgramPath.find("chromium")) != nil }

    /// The DOM of `url` after its scripts ran, and what Chromium said on stderr.
    /// `settling` gives the page's own work (a fetch and its answer) that much
    /// virtual time after load (`--virtual-time-budget`, milliseconds).
    public func dom(of url: String, settling: Int? = nil) async throws -> (dom: String, errors: String) {
        let budget = settling.map { ["--virtual-time-budget=\($0)"] } ?? []
        let run = try await answer(budget + ["--dump-dom", url], describing: "the DOM of \(url)") { output, _ in
            output.range(of: "</html>") != nil ? output : nil
        }
        return (run.answer, run.errors)
    }

    /// A PNG screenshot of `url`, written to `file` and returned.
    @discardableResult
    public func screenshot(of url: String, to file: String) async throws -> Data {
        try? FileManager.default.removeItem(atPath: file)
        return try await answer(["--screenshot=\(file)", url], describing: "a screenshot of \(url)") { _, _ in
            guard let png = FileManager.default.contents(atPath: file), Self.isCompletePNG(png) else { return nil }
            return png
        }.answer
    }

    /// A PNG ends with its IEND chunk: 0 length, "IEND", then its CRC.
    static func isCompletePNG(_ data: Data) -> Bool {
        let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        return data.count > 20 && data.starts(with: [0x89, 0x50, 0x4E, 0x47]) && data.suffix(12).elementsEqual(end)
    }

    /// Runs Chromium until `complete` finds its answer in stdout (or in a
    /// file) or the process ends; tried twice before it is a failure.
    private func answer<Answer: Sendable>(_ arguments: [String], describing what: String,
                                          complete: @escaping @Sendable (String, String) -> Answer?)
        async throws -> (answer: Answer, errors: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-chromium-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (out, err) = (folder + "/out", folder + "/err")
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let all = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)",
                   "--window-size=\(windowSize.width),\(windowSize.height)"] + arguments
        var hangs: [String] = []
        for _ in 1...2 {
            let chromium = try Spawned.start("chromium", all, output: out, errors: err)
            var found: Answer?
            _ = await pollUntil(within: limit, every: .milliseconds(20)) {
                found = complete(read(out), read(err))
                return found != nil || !chromium.isRunning
            }
            if found == nil { found = complete(read(out), read(err)) }
            let ended = chromium.exitStatus
            chromium.stop(grace: .milliseconds(500))
            if let found { return (found, read(err)) }
            guard ended == nil else {
                throw LabError.failed(program: "chromium", reason: "it ended (exit code \(exitCode(of: ended!))) without "
                                      + "\(what). Its last words:\n\(read(err).suffix(800))")
            }
            hangs.append("still running after \(limit) without \(what)")
        }
        throw LabError.timedOut("chromium " + all.joined(separator: " ") + " (" + hangs.joined(separator: "; then ") + ")")
    }
}
