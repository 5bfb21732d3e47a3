import Foundation

extension SimulatedPrinter {
    /// How a recording printer behaves: it stores each job it receives (its
    /// IPP_* attributes and the document, see `RunningPrinter.receivedJobs`)
    /// and then "prints" for `delay`.
    public struct Recording: Sendable, Hashable {
        /// How long each job prints after it was recorded: long enough to
        /// cancel a job while it prints, or to find the printer busy.
        public var delay: Duration
        /// The command's exit status; anything but 0 makes ippeveprinter abort the job.
        public var exitStatus: Int32
        /// Report `STATE: +media-empty` (on stderr) once the job is recorded, as a
        /// printer whose roll runs out during the job. Jobs after it wait until
        /// the paper is back (`RunningPrinter.setMediaLevel`).
        public var reportsMediaEmpty: Bool

        public init(delay: Duration = .zero, exitStatus: Int32 = 0, reportsMediaEmpty: Bool = false) {
            self.delay = delay; self.exitStatus = exitStatus; self.reportsMediaEmpty = reportsMediaEmpty
        }
    }

    /// `base` as a printer that records every job it receives. For PWG and
    /// Apple raster it also reports the document's page count to
    /// ippeveprinter (`ATTR: job-impressions`, then `job-impressions-completed`
    /// as pages x copies at the end), as a real printer counts impressions.
    public static func recording(_ base: SimulatedPrinter, delay: Duration = .zero, exitStatus: Int32 = 0,
                                 reportsMediaEmpty: Bool = false) -> SimulatedPrinter {
        var printer = base
        printer.recording = Recording(delay: delay, exitStatus: exitStatus, reportsMediaEmpty: reportsMediaEmpty)
        return printer
    }
}

extension SimulatedPrinter.Recording {
    /// Writes the recording script beside the printer's other files (`base`.record.sh)
    /// and creates `receivedDirectory`; returns the script's path for `-c`.
    func install(at base: URL, receivedDirectory: URL) throws -> String {
        try FileManager.default.createDirectory(at: receivedDirectory, withIntermediateDirectories: true)
        let file = base.appendingPathExtension("record.sh").path
        try writeExecutable(script(receivedDirectory: receivedDirectory.path), to: file)
        return file
    }

    /// Written with O_CLOEXEC, not through Foundation: a printer another test
    /// spawns meanwhile would otherwise inherit the descriptor open for
    /// writing, and every exec of the script would fail with ETXTBSY ("Text
    /// file busy"), aborting each job. Seen with tests starting printers in parallel.
    private func writeExecutable(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else {
            throw LabError.didNotStart(program: "the recording script \(path)", log: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw LabError.didNotStart(program: "the recording script \(path)", log: String(cString: strerror(errno)))
        }
    }

    /// The `-c` command. ippeveprinter runs it once per job with the document's
    /// path as `$1` and the job's attributes as IPP_* variables (values as
    /// ippAttributeString writes them: `\`, `"` and `[` escaped with `\`); it
    /// parses `ATTR:` and `STATE:` lines on its stderr. Everything is written
    /// to a temporary name and renamed (the document hard-linked), so a record
    /// that exists is complete, and the document is in place before its record.
    func script(receivedDirectory: String) -> String {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        return """
        #!/bin/sh
        # Written by KioskPrint's PrinterLab: records each job this printer receives.
        # Five processes a job (sh, ln, od, env, mv): the throughput bench's printers
        # share two cores with the agent it measures.
        received=\(shellQuoted(receivedDirectory))
        document="$1"
        id="${IPP_JOB_ID:-0}"
        stored="$received/job-$id.document"
        # A hard link: the document's bytes are not copied, and the name appears complete.
        ln -f "$document" "$stored" 2>/dev/null || {
          cp "$document" "$received/.job-$id.document.tmp" && mv -f "$received/.job-$id.document.tmp" "$stored"
        } || exit 1
        # The page count in the first raster header: PWG TotalPageCount (bytes
        # 456-459), URF's page count (bytes 8-11); both big-endian.
        pages=0
        set -- $(od -An -v -tu1 -N 460 "$document")
        if [ $# -ge 460 ] && [ "$1 $2 $3 $4" = "82 97 83 50" ]; then
          pages=$(( (${457} << 24) + (${458} << 16) + (${459} << 8) + ${460} ))
        elif [ $# -ge 12 ] && [ "$1 $2 $3 $4" = "85 78 73 82" ]; then
          pages=$(( ($9 << 24) + (${10} << 16) + (${11} << 8) + ${12} ))
        fi
        {
          env -0
          printf 'KIOSKPRINT_DOCUMENT=%s\\0KIOSKPRINT_PAGES=%s\\0' "$stored" "$pages"
        } > "$received/.job-$id.record.tmp" && mv -f "$received/.job-$id.record.tmp" "$received/job-$id.record" || exit 1
        if [ "${pages:-0}" -gt 0 ]; then echo "ATTR: job-impressions=$pages" >&2; fi
        \(reportsMediaEmpty ? "echo 'STATE: +media-empty' >&2" : "# (no media-empty report)")
        \(seconds > 0 ? "sleep \(String(format: "%.3f", seconds))" : "# (no delay)")
        if [ "${pages:-0}" -gt 0 ]; then echo "ATTR: job-impressions-completed=$((pages * ${IPP_COPIES:-1}))" >&2; fi
        exit \(exitStatus)

        """
    }

    private func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
