import Foundation
import Glibc
import Synchronization

/// Simulated GPIO chips for a child process, on a machine without GPIO.
///
/// `gpiod_standin.c` (embedded in this module) is compiled once per process
/// into a shared library with libgpiod v1's symbols. A child started with
/// `environment` loads it with LD_PRELOAD, so its calls into libgpiod reach
/// the stand-in, which reads and writes a control folder that this object
/// owns. The folder's format is documented at the top of the C file.
///
/// Edges carry timestamps the test chooses, from a virtual clock per line:
/// a 3 s hold costs no time at all.
public final class GPIOStandIn: Sendable {
    /// A simulated chip.
    public struct Chip: Sendable {
        public var name: String
        public var label: String
        /// One name per line ("" for an unnamed line); its count is the line count.
        public var lineNames: [String]

        /// `lines` lines named GPIO0, GPIO1, ... unless `lineNames` is given.
        public init(name: String = "gpiochip0", label: String = "standin-pinctrl", lines: Int = 32,
                    lineNames: [String]? = nil) {
            self.name = name
            self.label = label
            self.lineNames = lineNames ?? (0..<lines).map { "GPIO\($0)" }
        }
    }

    /// What a process asked for when it requested a line.
    public struct Request: Sendable, Equatable {
        public var consumer: String
        /// "input" or "output".
        public var direction: String
        public var activeLow: Bool
        /// "as-is", "disable", "pull-up" or "pull-down".
        public var bias: String

        public init(consumer: String, direction: String, activeLow: Bool, bias: String) {
            self.consumer = consumer
            self.direction = direction
            self.activeLow = activeLow
            self.bias = bias
        }
    }

    /// The control folder ($KIOSKPRINT_GPIO_STANDIN).
    public let folder: String
    /// The compiled stand-in library.
    public let library: String
    /// Each line's virtual clock: the timestamp of its latest edge.
    private let clocks = Mutex<[String: Duration]>([:])

    /// Builds the library (the first time in this process) and creates the
    /// chips' folders. Compiling runs on a thread of its own.
    public init(chips: [Chip] = [Chip()]) async throws {
        library = try await offloaded { try Self.built.get() }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-gpio-\(UUID().uuidString)").path
        for chip in chips {
            let directory = folder + "/" + chip.name
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Self.write(chip.label + "\n", to: directory + "/label")
            try Self.write("\(chip.lineNames.count)\n", to: directory + "/lines")
            try Self.write(chip.lineNames.map { $0 + "\n" }.joined(), to: directory + "/names")
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Merge into a child's environment to give it these chips instead of real ones.
    public var environment: [String: String] {
        ["LD_PRELOAD": library, "KIOSKPRINT_GPIO_STANDIN": folder]
    }

    // MARK: Inputs

    /// One press of a button on `line`: the line goes to its pressed level,
    /// then back after `heldFor`, both edges stamped on the line's virtual
    /// clock (a second after its previous edge). `wiredActiveLow` is how the
    /// button is wired: pressing pulls the line low (the usual wiring).
    /// Waits until the line has been requested for edges.
    public func press(chip: String = "gpiochip0", line: Int, heldFor: Duration, wiredActiveLow: Bool = true) async throws {
        let start = tick(chip, line, after: .seconds(1))
        let end = tick(chip, line, after: heldFor)
        try await send(chip, line, [(!wiredActiveLow, start), (wiredActiveLow, end)])
    }

    /// One edge: the line's physical level becomes `high`, `after` the line's
    /// previous edge (contact bounce is a few edges a millisecond apart).
    /// Waits until the line has been requested for edges.
    public func edge(chip: String = "gpiochip0", line: Int, high: Bool, after: Duration) async throws {
        try await send(chip, line, [(high, tick(chip, line, after: after))])
    }

    // MARK: Outputs and requests

    /// An output's physical level (after active-low inversion, like the
    /// pin); nil if it was never driven.
    public func value(chip: String = "gpiochip0", line: Int) -> Int? {
        read(chip, line, "value").flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Every level the output was driven to, in order: the request's initial
    /// level first, then each set.
    public func changes(chip: String = "gpiochip0", line: Int) -> [Int] {
        (read(chip, line, "log") ?? "").split(separator: "\n").compactMap { Int($0) }
    }

    /// Makes `line` held by another program named `consumer`: requests fail with EBUSY.
    public func markBusy(chip: String = "gpiochip0", line: Int, consumer: String) throws {
        try Self.write(consumer + "\n", to: path(chip, line, "busy"))
    }

    /// Makes opening `chip` fail with EACCES, as for a user outside the gpio group.
    public func denyAccess(chip: String = "gpiochip0") throws {
        try Self.write("", to: folder + "/" + chip + "/denied")
    }

    /// The request a process holds on `line` now; nil if none.
    public func request(chip: String = "gpiochip0", line: Int) -> Request? {
        guard let text = read(chip, line, "request") else { return nil }
        var fields: [String: String] = [:]
        for entry in text.split(separator: "\n") {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return Request(consumer: fields["consumer"] ?? "", direction: fields["direction"] ?? "",
                       activeLow: fields["active-low"] == "1", bias: fields["bias"] ?? "")
    }

    /// Waits until `line` is requested (by a child starting up); nil if it
    /// is not within `limit`. A minute: in the full suite, with a few hundred
    /// processes starting around it, a debug `kioskprint gpio watch` once took
    /// more than 20 s to get there. The wait polls, so a quick child returns
    /// at once.
    public func waitForRequest(chip: String = "gpiochip0", line: Int, within limit: Duration = .seconds(60)) async -> Request? {
        _ = await pollUntil(within: limit) { request(chip: chip, line: line) != nil }
        return request(chip: chip, line: line)
    }

    // MARK: Internals

    /// Writes the edges as records into the line's FIFO, in one write (well
    /// under PIPE_BUF, so the reader never sees half a record).
    private func send(_ chip: String, _ line: Int, _ edges: [(high: Bool, at: Duration)]) async throws {
        guard let request = await waitForRequest(chip: chip, line: line), request.direction == "input" else {
            throw LabError.timedOut("a request for edges on line \(line) of \(chip)")
        }
        let records = edges.map { edge in
            let (seconds, attoseconds) = edge.at.components
            let nanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
            let digits = String(nanoseconds)
            return (edge.high ? "R " : "F ") + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + "\n"
        }.joined()
        let fifo = path(chip, line, "edges")
        // Non-blocking: with no reader this fails with ENXIO rather than hanging. A program that
        // releases the line and requests it again leaves a moment with no reader (the request file
        // still there): the open is tried again until the reader is back, within the same limit.
        var fd: Int32 = -1, failure: Int32 = 0
        _ = await pollUntil(within: .seconds(10)) {
            fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            failure = errno
            return fd >= 0 || failure != ENXIO
        }
        guard fd >= 0 else { throw LabError.didNotStart(program: "GPIO stand-in", log: "open \(fifo): \(String(cString: strerror(failure)))") }
        defer { close(fd) }
        let bytes = Array(records.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw LabError.didNotStart(program: "GPIO stand-in", log: "write \(fifo): \(String(cString: strerror(errno)))")
        }
    }

    /// Advances the line's virtual clock (starting at 1000 s) and returns the new time.
    private func tick(_ chip: String, _ line: Int, after step: Duration) -> Duration {
        clocks.withLock { clocks in
            let now = (clocks["\(chip)/\(line)"] ?? .seconds(1000)) + step
            clocks["\(chip)/\(line)"] = now
            return now
        }
    }

    private func path(_ chip: String, _ line: Int, _ suffix: String) -> String {
        "\(folder)/\(chip)/\(line).\(suffix)"
    }

    private func read(_ chip: String, _ line: Int, _ suffix: String) -> String? {
        try? String(contentsOfFile: path(chip, line, suffix), encoding: .utf8)
    }

    private static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The library, compiled once per process into a folder removed at exit.
    private static let built: Result<String, any Error> = Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kioskprint-gpio-standin-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        LiveChildren.register(folder: directory)
        let source = directory + "/gpiod_standin.c", library = directory + "/libgpiod-standin.so"
        try Data(PackageResources.gpiod_standin_c).write(to: URL(fileURLWithPath: source))
        guard (try? ProgramPath.resolve("cc")) != nil else {
            throw LabError.didNotStart(program: "the GPIO stand-in",
                                       log: "No C compiler (cc) on PATH. Install one with: sudo apt-get install gcc")
        }
        let compiled = try Subprocess.run("cc", ["-shared", "-fPIC", "-O1", "-o", library, source], limit: .seconds(60))
        guard compiled.status == 0 else {
            throw LabError.didNotStart(program: "cc (building the GPIO stand-in)", log: compiled.output + compiled.errors)
        }
        return library
    }
}
