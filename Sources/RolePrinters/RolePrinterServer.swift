import Foundation
public import IPP
public import PrintModel
public import Spooler
import Store

/// The role printers: each role turned on in the configuration answered as
/// one IPP Everywhere printer at `/ipp/print/ROLE`. A job sent to one is a
/// role job like any other (the same intake, queue, failover and events);
/// its IPP job-id is the job's own number. The server holds no state of
/// its own beyond jobs still waiting for their document.
public struct RolePrinterServer: Sendable {
    public let intake: JobIntake
    public let canceller: JobCanceller
    /// The roles served, each at `/ipp/print/ROLE`.
    public let roles: Set<Role>
    public let identity: RolePrinterIdentity
    /// How the role's printer is reached for Identify-Printer.
    public let channels: PrinterChannels
    /// What else shows a person which role printer this is (the role's status light); nil: nothing.
    public let signals: (any RoleSignals)?
    /// The spooler's live view of its printers (`Spooler.printerConditions`),
    /// newer than what was saved at their last check; nil: the saved state only.
    public let conditions: (@Sendable () -> [PrinterCondition])?
    let pending = PendingJobs()

    public init(intake: JobIntake, canceller: JobCanceller, roles: Set<Role>, identity: RolePrinterIdentity,
                channels: PrinterChannels = .standard(timeout: .seconds(3)), signals: (any RoleSignals)? = nil,
                conditions: (@Sendable () -> [PrinterCondition])? = nil) {
        self.intake = intake; self.canceller = canceller; self.roles = roles; self.identity = identity
        self.channels = channels; self.signals = signals; self.conditions = conditions
    }

    var store: KioskStore { intake.store }

    /// Answers one request. Every refusal is an IPP status with a message
    /// saying what to change; nothing a client sends makes this throw.
    public func respond(to request: RolePrinterRequest) async -> IPPMessage {
        let version = request.message.version.major == 2 ? IPPVersion(major: 2, minor: 0) : IPPVersion(major: 1, minor: 1)
        do throws(IPPRefusal) {
            guard roles.contains(request.role) else {
                throw IPPRefusal(.notFound, "No role printer is at /ipp/print/\(request.role). "
                    + "Served here: \(roles.map(\.description).sorted().joined(separator: ", ")).")
            }
            let operation = try RequestCheck.check(request)
            let answer = try await perform(operation, request)
            return reply(answer, version: version, requestID: request.message.requestID)
        } catch {
            let answer = Answer(status: error.status, message: error.message, unsupported: error.unsupported)
            return reply(answer, version: version, requestID: request.message.requestID)
        }
    }

    /// What an operation answers, before it is framed.
    struct Answer: Sendable {
        var status: IPPStatus = .ok
        var message: String?
        var unsupported: [IPPAttribute] = []
        /// Printer attributes (Get-Printer-Attributes).
        var printer: [IPPAttribute] = []
        /// One group per job.
        var jobs: [[IPPAttribute]] = []
    }

    private func perform(_ operation: IPPOperation, _ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        switch operation {
        case .getPrinterAttributes: try await getPrinterAttributes(request)
        case .validateJob: try await validateJob(request)
        case .printJob: try await printJob(request)
        case .createJob: try await createJob(request)
        case .sendDocument: try await sendDocument(request)
        case .closeJob: try await closeJob(request)
        case .getJobAttributes: try await getJobAttributes(request)
        case .getJobs: try await getJobs(request)
        case .cancelJob: try await cancelJob(request)
        case .cancelMyJobs: try await cancelMyJobs(request)
        case .identifyPrinter: try await identifyPrinter(request)
        }
    }

    private func reply(_ answer: Answer, version: IPPVersion, requestID: Int) -> IPPMessage {
        var operation: [IPPAttribute] = [
            IPPAttribute(name: "attributes-charset", syntax: .charset, group: .operation, values: [.string("utf-8")]),
            IPPAttribute(name: "attributes-natural-language", syntax: .naturalLanguage, group: .operation, values: [.string("en")]),
        ]
        if let message = answer.message { operation.append(IPPAttribute.text("status-message", message).inGroup(.operation)) }
        var groups = [IPPAttributeGroup(tag: .operation, attributes: operation)]
        if !answer.unsupported.isEmpty {
            groups.append(IPPAttributeGroup(tag: .unsupported, attributes: answer.unsupported.map { $0.inGroup(.unsupported) }))
        }
        if !answer.printer.isEmpty {
            groups.append(IPPAttributeGroup(tag: .printer, attributes: answer.printer.map { $0.inGroup(.printer) }))
        }
        for job in answer.jobs {
            groups.append(IPPAttributeGroup(tag: .job, attributes: job.map { $0.inGroup(.job) }))
        }
        let status = answer.status == .ok && !answer.unsupported.isEmpty ? IPPStatus.okIgnoredOrSubstituted : answer.status
        return IPPMessage(version: version, code: status.rawValue, requestID: requestID, groups: groups)
    }

    /// What a role printer's web page shows: nil for a role not served.
    public func page(for role: Role, base: String) async -> RolePrinterPage? {
        guard roles.contains(role) else { return nil }
        guard let printer = try? await describe(role, base: base) else { return nil }
        return RolePrinterPage(role: role, uri: printer.printerURI, printerName: printer.printer?.name, state: printer.stateMessage,
                               reasons: printer.stateReasons, queued: printer.queuedJobs, statusPage: identity.moreInfo)
    }

    /// The role printer as it is now: the printer its jobs go to (the
    /// primary, or the first backup ready while the primary needs a person),
    /// and its queue.
    func describe(_ request: RolePrinterRequest) async throws(IPPRefusal) -> PrinterDescription {
        try await describe(request.role, base: request.base)
    }

    func describe(_ role: Role, base: String) async throws(IPPRefusal) -> PrinterDescription {
        do {
            let printing = try await RoleNow.read(role, store: store, conditions: conditions?() ?? []).printing
            let unfinished = try await store.jobs(role: role)
            return PrinterDescription(role: role, identity: identity, printer: printing, queuedJobs: unfinished.count,
                                      printing: unfinished.contains { $0.state == .sending || $0.state == .sent }, base: base)
        } catch {
            throw IPPRefusal(.internalError, "The role \(role) could not be read: \(store.explain(error)) Try again shortly.")
        }
    }
}

extension RolePrinterServer {
    /// `printer` as the spooler last found it: its trouble (or the warnings
    /// of its last ready answer) in place of the reasons saved at its last
    /// check, so a paper-out primary shows, and the role's jobs go to its
    /// backup, from the moment a job met it.
    static func current(_ printer: SavedPrinter, _ conditions: [PrinterCondition]) -> SavedPrinter {
        guard let condition = conditions.first(where: { $0.uri == printer.uri }) else { return printer }
        var current = printer
        if let trouble = condition.trouble {
            current.capabilities.stateReasons = trouble.map { StateReason(keyword: $0 == "unreachable" ? "offline" : $0, severity: .error) }
            current.capabilities.state = .stopped
        } else if let warnings = condition.warnings {
            current.capabilities.stateReasons = warnings.map { StateReason(keyword: $0, severity: .warning) }
            if current.capabilities.state == .stopped { current.capabilities.state = .idle }
        }
        return current
    }
}

/// What a role printer's web page (`printer-more-info`) shows.
public struct RolePrinterPage: Sendable {
    public var role: Role
    public var uri: String
    /// The printer its jobs go to now; nil when none holds the role.
    public var printerName: String?
    public var state: String
    public var reasons: [String]
    public var queued: Int
    /// The agent's status page, when the API listens on TCP.
    public var statusPage: String?
}
