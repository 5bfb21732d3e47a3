public import Foundation
public import PrintModel
import Synchronization

/// Simulated printers on loopback, found through a private Avahi: a drawer
/// full of printers for the demo and the tests, without touching the
/// machine's own services.
///
/// A lab starts, in order: a private D-Bus bus (in its own folder), an
/// `avahi-daemon` limited to the loopback interface, in a private mount
/// namespace so its pid file and socket never meet a system Avahi, and one
/// `ippeveprinter` per printer. Each process is stopped by its own id.
///
/// The lab points this process's `DBUS_SYSTEM_BUS_ADDRESS` at its bus, so
/// Avahi clients created afterwards (the discovery code) talk to its daemon.
public final class PrinterLab: Sendable {
    /// The folder holding the bus socket, configuration, attribute files and spools.
    public let directory: URL
    /// What `DBUS_SYSTEM_BUS_ADDRESS` is set to.
    public let busAddress: String
    private let bus: ChildProcess
    private let avahi: ChildProcess
    /// A live `avahi-browse` of every service, started with the lab; its log
    /// is how the lab knows a printer has been announced.
    private let browse: ChildProcess
    private let started = Mutex<[RunningPrinter]>([])

    /// The mount namespace the lab's avahi-daemon runs in, where its socket is
    /// `/run/avahi-daemon/socket`: a program run there with `nsenter --mount=`
    /// resolves `HOST.local` through nss-mdns (libnss-mdns) as on a real LAN.
    public var avahiMountNamespace: String { "/proc/\(avahi.pid)/ns/mnt" }

    /// The printers started with the lab and since, in start order.
    public var printers: [RunningPrinter] { started.withLock { $0 } }

    /// The running printer with this name.
    public func printer(named name: String) -> RunningPrinter? { printers.first { $0.name == name } }

    /// The receipt, label and office printers of `SimulatedPrinter.standardSet`,
    /// without the ones tests started since.
    public var standardPrinters: [RunningPrinter] { SimulatedPrinter.standardSet.compactMap { printer($0) } }

    /// The running printer started from `preset` (whatever tag its name carries).
    public func printer(_ preset: SimulatedPrinter) -> RunningPrinter? {
        printers.first { $0.preset == preset }
    }

    /// A word added to every printer name, e.g. `(lab 3f2a)`, so that labs of
    /// several processes on one machine (their Avahi daemons all hear each
    /// other on loopback) never show two printers of the same name.
    public let nameTag: String?

    /// Starts a lab with `printers` registered in its Avahi; returns once each
    /// is listening and announced.
    public static func start(_ printers: [SimulatedPrinter] = SimulatedPrinter.standardSet,
                             nameTag: String? = nil) async throws -> PrinterLab {
        try await offloaded {
            let lab = try PrinterLab(nameTag: nameTag)
            for printer in printers { _ = try lab.launch(printer, keys: lab.sharedKeys) }
            return lab
        }
    }

    /// One lab per process with the standard receipt, label and office printers,
    /// started on first use and stopped when the process exits. Tests share it;
    /// a test that breaks a printer starts its own with `startPrinter`.
    public static func shared() async throws -> PrinterLab {
        try await SharedLab.instance.lab()
    }

    /// A short tag unique to this process, for `nameTag`.
    public static var processTag: String { "lab \(String(getpid(), radix: 36))" }

    private init(nameTag: String?) throws {
        self.nameTag = nameTag
        guard geteuid() == 0 else { throw LabError.needsRoot }
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-lab-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard let made = mkdtemp(&buffer) else { throw LabError.timedOut("a lab folder") }
        directory = URL(fileURLWithPath: String(cString: made))
        LiveChildren.register(folder: directory.path)

        // ippeveprinter keeps its TLS key and self-signed certificate here; it
        // cannot create the folder itself, and without it every ipps:// fails.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("keys"),
                                                withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        busAddress = "unix:path=\(socket)"
        bus = try ChildProcess.launch("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(busAddress)"],
                                      logFile: directory.appendingPathComponent("dbus.log"))
        let bus = bus
        try waitUntil("the private D-Bus bus") {
            guard bus.isRunning else { throw LabError.didNotStart(program: "dbus-daemon", log: bus.logTail()) }
            return FileManager.default.fileExists(atPath: socket)
        }
        setenv("DBUS_SYSTEM_BUS_ADDRESS", busAddress, 1)

        let config = directory.appendingPathComponent("avahi-daemon.conf")
        try Self.avahiConfiguration.write(to: config, atomically: true, encoding: .utf8)
        // A tmpfs over /run in a private mount namespace gives this daemon its
        // own /run/avahi-daemon (pid file, socket): Avahi allows one per machine.
        let script = "mount -t tmpfs tmpfs /run && mkdir /run/avahi-daemon && "
            + "exec avahi-daemon -f '\(config.path)' --no-drop-root --no-chroot --no-rlimits"
        _ = try ProgramPath.resolve("avahi-daemon")  // name the package before unshare hides why
        avahi = try ChildProcess.launch("unshare", ["--mount", "--propagation", "private", "sh", "-c", script],
                                        environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddress],
                                        logFile: directory.appendingPathComponent("avahi-daemon.log"))
        let avahi = avahi
        try waitUntil("avahi-daemon") {
            guard avahi.isRunning else { throw LabError.didNotStart(program: "avahi-daemon", log: avahi.logTail()) }
            return avahi.logTail(lines: 50).contains("Server startup complete")
        }
        browse = try ChildProcess.launch("avahi-browse", ["--all", "--resolve", "--parsable", "--no-db-lookup"],
                                         environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddress],
                                         logFile: directory.appendingPathComponent("announcements.log"))
    }

    /// Starts one more printer, registered in the lab's Avahi. Its TLS key and
    /// certificate are the lab's, shared by its printers, unless `keys` names
    /// a folder of its own (`newKeyFolder()`).
    public func startPrinter(_ printer: SimulatedPrinter, keys: URL? = nil) async throws -> RunningPrinter {
        try await offloaded { try self.launch(printer, keys: keys ?? self.sharedKeys) }
    }

    /// Stops `running` and starts its printer again on the same port, as after
    /// a power cycle: a URI saved for it reaches it again. Its received jobs
    /// (when recording) are kept. It keeps its certificate unless `keys` names
    /// another key folder: a new, empty one gives it a new certificate, as a
    /// printer reset to factory settings (or an impostor at its address) has.
    public func restart(_ running: RunningPrinter, keys: URL? = nil) async throws -> RunningPrinter {
        running.stop()
        started.withLock { $0.removeAll { $0 == running } }
        return try await offloaded { try self.launch(running.preset, port: running.port, keys: keys ?? running.keyFolder) }
    }

    /// The key folder the lab's printers share.
    var sharedKeys: URL { directory.appendingPathComponent("keys") }

    /// Starts `preset` on a free port; if another socket took the port between
    /// choosing and binding it, tries again on another.
    private func launch(_ preset: SimulatedPrinter, keys: URL) throws -> RunningPrinter {
        var attempt = 1
        while true {
            do {
                return try launch(preset, port: try Loopback.freePort(), keys: keys)
            } catch LabError.didNotStart(_, let log) where log.contains("Address already in use") && attempt < 3 {
                attempt += 1
            }
        }
    }

    private func launch(_ preset: SimulatedPrinter, port: Int, keys: URL) throws -> RunningPrinter {
        let printer = nameTag.map { preset.named("\(preset.name) (\($0))") } ?? preset
        let slug = printer.name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let base = directory.appendingPathComponent("\(String(slug))-\(port)")
        let attributes = base.appendingPathExtension("attrs")
        let spool = base.appendingPathExtension("spool")
        try printer.attributes.write(to: attributes, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)

        var arguments = ["-K", keys.path, "-n", "localhost",
                         "-p", String(port), "-a", attributes.path, "-d", spool.path]
        if !printer.location.isEmpty { arguments += ["-l", printer.location] }
        if printer.keepsDocuments { arguments.append("-k") }
        if let recording = printer.recording {
            arguments += ["-c", try recording.install(at: base, receivedDirectory: RunningPrinter.received(in: spool))]
        } else if let command = printer.command {
            arguments += ["-c", command]
        }
        arguments.append(printer.name)

        try makeTLSCredentials(in: keys)
        let process = try ChildProcess.launch("ippeveprinter", arguments,
                                              environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddress],
                                              logFile: base.appendingPathExtension("log"))
        do {
            try waitUntilReady(process, printer: printer, port: port, keys: keys)
        } catch {
            process.stop()  // reaped and forgotten: its pid must not be signalled at exit
            throw error
        }
        let running = RunningPrinter(simulated: printer, preset: preset, port: port, process: process,
                                     spoolDirectory: spool, keyFolder: keys)
        started.withLock { $0.append(running) }
        return running
    }

    /// Waits until the printer listens and is announced.
    private func waitUntilReady(_ process: ChildProcess, printer: SimulatedPrinter, port: Int, keys: URL) throws {
        try waitUntil("ippeveprinter '\(printer.name)'") {
            guard process.isRunning else {
                throw LabError.didNotStart(program: "ippeveprinter '\(printer.name)'", log: process.logTail())
            }
            return Loopback.accepts(port: port)
        }
        // ippeveprinter goes on with one address family when the other's port is taken
        // ("Unable to create IPv4 listener"): another server then answers half of
        // localhost:PORT (a stopped printer was seen answering so). Start it elsewhere.
        if process.logTail().contains("Unable to create IPv") {
            throw LabError.didNotStart(program: "ippeveprinter '\(printer.name)'", log: process.logTail())
        }
        // 60 s, not 20: a test suite's first half minute starts some thirty
        // printers at once, and on a slow host the lab's Avahi took more than
        // 20 s to announce the last of them (eleven tests failed so in one
        // fresh-clone run; the lab went on to announce them). Polled: a quick
        // announcement still returns at once.
        try waitUntil("Avahi to announce '\(printer.name)'", within: .seconds(60)) {
            guard process.isRunning else {
                throw LabError.didNotStart(program: "ippeveprinter '\(printer.name)'", log: process.logTail())
            }
            return try announced(port: port, type: "_ipp._tcp") && announced(port: port, type: "_ipps._tcp")
        }
    }

    /// ippeveprinter makes its TLS key and certificate at its first ipps
    /// connection, in its keys folder, when none is there. Under load that
    /// went wrong two ways: printers sharing a folder raced to write the same
    /// files, and a slow first handshake was retried, so the printer kept one
    /// certificate in memory while the folder held another, and a pin taken
    /// from the folder did not match what the printer presented. So the lab
    /// writes the key and certificate itself, with openssl, before the printer
    /// starts; the printer only ever loads them.
    private func makeTLSCredentials(in keys: URL) throws {
        try PrinterLab.credentialsLock.withLock { _ in
            let certificate = keys.appendingPathComponent("localhost.crt").path
            guard !FileManager.default.fileExists(atPath: certificate) else { return }
            let key = keys.appendingPathComponent("localhost.key").path
            // P-256, not RSA: made in a millisecond even on a busy machine.
            let made = try Subprocess.run("openssl", [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key + ".new", "-out", certificate + ".new", "-subj", "/CN=localhost", "-days", "3650",
                "-addext", "subjectAltName=DNS:localhost",
            ], limit: .seconds(30))
            guard made.status == 0 else {
                throw LabError.didNotStart(program: "openssl req (the lab's TLS certificate)", log: made.output + made.errors)
            }
            // The key first: a certificate in place means both are complete.
            guard rename(key + ".new", key) == 0, rename(certificate + ".new", certificate) == 0 else {
                throw LabError.didNotStart(program: "the lab's TLS certificate", log: String(cString: strerror(errno)))
            }
        }
    }

    /// One writer of key folders at a time, in this process.
    private static let credentialsLock = Mutex<Void>(())

    /// Whether the lab's Avahi has resolved a `type` service on `port`, as seen
    /// by avahi-browse: an independent client, so the lab does not depend on
    /// the discovery code it is there to test.
    private func announced(port: Int, type: String) throws -> Bool {
        guard browse.isRunning else { throw LabError.didNotStart(program: "avahi-browse", log: browse.logTail()) }
        let seen = (try? String(contentsOf: browse.logFile, encoding: .utf8)) ?? ""
        return seen.split(separator: "\n").contains {
            $0.hasPrefix("=") && $0.contains(";\(type);") && $0.contains(";\(port);")
        }
    }

    /// Publishes a DNS-SD service with any TXT record, as a network printer
    /// would (`avahi-publish -s`). Nothing needs to listen on `port`.
    public func publish(name: String, type: String = "_ipp._tcp", port: Int, txt: [String]) async throws -> Publication {
        try await offloaded {
            let log = self.directory.appendingPathComponent("publish-\(UUID().uuidString.prefix(8)).log")
            let process = try ChildProcess.launch("avahi-publish", ["-s", name, type, String(port)] + txt,
                                                  environment: ["DBUS_SYSTEM_BUS_ADDRESS": self.busAddress],
                                                  logFile: log)
            try waitUntil("avahi-publish '\(name)'") {
                guard process.isRunning else { throw LabError.didNotStart(program: "avahi-publish", log: process.logTail()) }
                return process.logTail().contains("Established under name")
            }
            return Publication(name: name, type: type, process: process)
        }
    }

    /// Stops every printer, then Avahi, then the bus, and removes the lab's folder.
    public func stop() {
        for printer in printers.reversed() { printer.stop() }
        started.withLock { $0.removeAll() }
        browse.stop()
        avahi.stop()
        bus.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    static let avahiConfiguration = """
    [server]
    allow-interfaces=lo
    use-ipv4=yes
    use-ipv6=no
    enable-dbus=yes
    ratelimit-interval-usec=0
    [wide-area]
    enable-wide-area=no
    [publish]
    publish-workstation=no
    publish-hinfo=no
    [reflector]
    enable-reflector=no
    """
}

/// A simulated printer that is running.
public struct RunningPrinter: Sendable, Hashable {
    /// The printer as started, its name tagged when the lab tags names.
    public let simulated: SimulatedPrinter
    /// The preset it was started from.
    public let preset: SimulatedPrinter
    public let port: Int
    public let process: ChildProcess
    /// Where ippeveprinter keeps the documents it receives (with `keepsDocuments`).
    public let spoolDirectory: URL
    /// Its `-K` folder: the TLS key and self-signed certificate it presents over ipps.
    public let keyFolder: URL

    public var name: String { simulated.name }
    public var kinds: Set<JobKind> { simulated.kinds }
    /// `ipp://localhost:PORT/ipp/print`.
    public var uri: String { "ipp://localhost:\(port)/ipp/print" }
    /// The same printer over TLS (self-signed certificate).
    public var secureURI: String { "ipps://localhost:\(port)/ipp/print" }

    /// Kills the printer (SIGTERM, then SIGKILL): it is gone, as if unplugged.
    public func stop() { process.stop() }
    /// SIGSTOP: it still accepts connections but never answers, like a hung printer.
    public func suspend() { process.suspend() }
    public func resume() { process.resume() }

    public static func == (a: RunningPrinter, b: RunningPrinter) -> Bool { a.process.pid == b.process.pid }
    public func hash(into hasher: inout Hasher) { hasher.combine(process.pid) }
}

/// A DNS-SD service published with `avahi-publish`; `stop()` withdraws it.
public struct Publication: Sendable {
    public let name: String
    public let type: String
    public let process: ChildProcess
    public func stop() { process.stop() }
}

/// The process-wide lab behind `PrinterLab.shared()`, started once.
private actor SharedLab {
    static let instance = SharedLab()
    private var starting: Task<PrinterLab, any Error>?

    func lab() async throws -> PrinterLab {
        if let starting { return try await starting.value }
        let task = Task { try await PrinterLab.start(nameTag: PrinterLab.processTag) }
        starting = task
        return try await task.value
    }
}
