import Logging
import Metrics
import PrintModel
import RolePrinters
import Spooler

/// One client's connection to a raw role printer, apart from the socket:
/// bytes in, answers out, jobs queued. Print data collects until the job
/// ends (the client closes, pauses for the role's gap, or asks `GS ( H` to
/// confirm what it sent); every ask is answered at once from what the agent
/// knows of the role's printer, and left out of the job.
struct RawConnection: Sendable {
    let role: Role
    let client: String
    let port: Int
    let keeper: RawJobKeeper
    let status: RoleStatus
    let logger: Logger
    /// A job larger than this is refused (kept in `refused/`) and the connection closed.
    let maxBytes: Int
    private var stream: HostStream
    private var content: [UInt8] = []
    /// The jobs this connection queued, in order.
    private(set) var queued: [JobID] = []
    /// `GS a n`'s items (bits 0-3) the client asked to be told of; 0: none.
    private var automaticStatusMask: UInt8 = 0
    /// The ASB bytes last sent, to tell a change by.
    private var lastAutomaticStatus: [UInt8] = []

    var language: PrinterLanguage { stream.language }

    init(role: Role, language: PrinterLanguage, client: String, port: Int, keeper: RawJobKeeper, status: RoleStatus,
         logger: Logger, maxBytes: Int) {
        self.role = role; self.client = client; self.port = port; self.keeper = keeper; self.status = status
        self.logger = logger; self.maxBytes = maxBytes
        stream = HostStream(language: language)
    }

    /// What the connection does after some bytes.
    enum Next: Sendable, Equatable { case goOn, close }

    /// Takes `bytes`; returns the answers to send back, in order, and whether to go on.
    mutating func receive(_ bytes: some Collection<UInt8>) async -> (answers: [UInt8], next: Next) {
        var answers: [UInt8] = []
        var snapshot: RoleStatus.Snapshot?
        for piece in stream.feed(bytes) {
            switch piece {
            case .data(let data):
                content += data
            case .ask(let ask):
                if ask.confirmsWhatCameBefore { await endJob() }
                if snapshot == nil { snapshot = await status.snapshot(of: role) }
                let answer = RoleStatus.answer(ask, snapshot!)
                if case .escpos(.automaticStatus(let n)) = ask {
                    automaticStatusMask = n & 0x0F
                    lastAutomaticStatus = answer
                }
                answers += answer
            }
        }
        guard content.count + stream.heldBytes <= maxBytes else {
            let reason = "the \(language) sent by \(client) to port \(port) passed \(maxBytes / 1_048_576) MB, the most one job may be "
                + "(a day of labels, not an archive); the connection was closed. Send the jobs one connection each."
            let kept = keeper.quarantine(content + stream.finish(), language: language, role: role, reason: reason)
            RawJobCount.refused(role)
            logger.error("Raw printer \(role): \(reason) What arrived is kept in \(kept ?? "nowhere: refused/ could not be written").")
            content = []
            return (answers, .close)
        }
        return (answers, .goOn)
    }

    /// The ASB bytes to send now, when Automatic Status Back is on and an
    /// item the client watches changed since they were last sent (as a
    /// printer sends them unasked); empty otherwise. Called at each pause.
    mutating func automaticStatusChange() async -> [UInt8] {
        guard automaticStatusMask != 0 else { return [] }
        let now = RoleStatus.answer(.escpos(.automaticStatus(automaticStatusMask)), await status.snapshot(of: role))
        guard Self.watched(now, automaticStatusMask) != Self.watched(lastAutomaticStatus, automaticStatusMask) else { return [] }
        lastAutomaticStatus = now
        return now
    }

    /// The ASB bits `mask` watches (GS a n: bit 0 the drawer, 1 online or
    /// offline and the cover, 2 the errors, 3 the paper sensors).
    static func watched(_ status: [UInt8], _ mask: UInt8) -> [UInt8] {
        guard status.count == 4 else { return [] }
        return [mask & 1 != 0 ? status[0] & 0x04 : 0, mask & 2 != 0 ? status[0] & 0x28 : 0,
                mask & 4 != 0 ? status[1] : 0, mask & 8 != 0 ? status[2] : 0]
    }

    /// Ends the job: queues what was sent since the last one, unless it prints nothing.
    mutating func endJob(closing: Bool = false) async {
        if closing { content += stream.finish() }
        guard !content.isEmpty else { return }
        let bytes = content
        content = []
        guard !HostStream.printsNothing(bytes, language: language) else { return }
        switch await keeper.keep(bytes, language: language, role: role, from: client, port: port) {
        case .queued(let id):
            RawJobCount.queued(role)
            queued.append(id)
            logger.info("Raw printer \(role): job \(id) queued, \(bytes.count) bytes of \(language) from \(client).")
        case .refused(let path, let reason):
            RawJobCount.refused(role)
            logger.error("Raw printer \(role): \(reason) The bytes are kept in \(path ?? "nowhere: refused/ could not be written").")
        }
    }
}

/// `kioskprint_raw_jobs_total{role, outcome}`: what became of the jobs tills
/// sent a raw role printer. A till on port 9100 cannot be told that its job
/// was refused, so the count (and its alert) is where a person learns it.
public enum RawJobCount {
    public static let metric = "kioskprint_raw_jobs_total"

    /// Both series of `role` at 0, so that an alert on them has something to read before the first job.
    static func start(_ role: Role) {
        for outcome in ["queued", "refused"] { counter(role, outcome).increment(by: 0) }
    }

    static func queued(_ role: Role) { counter(role, "queued").increment() }
    static func refused(_ role: Role) { counter(role, "refused").increment() }

    private static func counter(_ role: Role, _ outcome: String) -> Counter {
        Counter(label: metric, dimensions: [("role", role.description), ("outcome", outcome)])
    }
}
