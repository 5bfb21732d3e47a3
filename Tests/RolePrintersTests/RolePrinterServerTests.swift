import Foundation
import IPP
import PrintModel
import RolePrinters
import Spooler
import Store
import Synchronization
import Testing

/// The role printer's answers, from a real store: what RFC 8011 asks of
/// every request, the printer's description built from the role's printer,
/// and jobs that become role jobs.
@Suite struct RolePrinterServerTests {
    @Test func requestsRFC8011RefusesAreRefusedWithTheirStatus() async throws {
        var desk = try await RoleDesk.make()
        #expect(await desk.send(0x000B, version: .init(major: 0, minor: 0)).status == .versionNotSupported)
        #expect(await desk.send(0x000B, requestID: 0).status == .badRequest)
        #expect(await desk.send(0x0012).status == .operationNotSupported, "Purge-Jobs is not served")
        #expect(await desk.send(0x000B, role: .kitchen).status == .notFound, "a role not turned on is not a printer")
        // The charset must come first.
        let swapped = IPPMessage(code: 0x000B, requestID: 9, groups: [IPPAttributeGroup(tag: .operation, attributes: RoleDesk.preamble.reversed())])
        let answer = await desk.server.respond(to: RolePrinterRequest(message: swapped, document: Data(), role: .receipt, base: "ipp://x"))
        #expect(answer.status == .badRequest && answer.requestID == 9, "\(answer.statusMessage)")
    }

    @Test func thePrinterIsTheRolesPrinterItsRollAndItsCutRange() async throws {
        var desk = try await RoleDesk.make()
        // media-col-database only when named (PWG 5100.7): "all" leaves it out.
        let answer = await desk.send(0x000B, [.keyword("requested-attributes", "all", "media-col-database").inOperation])
        #expect(answer.status == .ok, "\(answer.statusMessage)")
        let printer = answer.attributes(in: .printer)
        #expect(printer.strings("printer-kind") == ["receipt", "roll"])
        #expect(printer.strings("printer-uri-supported") == ["ipp://localhost:8631/ipp/print/receipt"])
        #expect(printer.string("printer-more-info") == "http://localhost:8631/ipp/print/receipt")
        #expect(printer.strings("printer-icons") == ["http://localhost:8631/ipp/print/receipt/icon.png"])
        let ready = try #require(printer.collections("media-col-ready").first)
        #expect(ready.string("media-source") == "main-roll")
        let size = try #require(ready.collections("media-size").first)
        #expect(size.int("x-dimension") == 8000)
        #expect(size[named: "y-dimension"]?.value?.range == 2500...300_000, "the cut range is the length a job may ask for")
        #expect(ready.int("media-left-margin") == 400)
        #expect(printer.strings("media-ready") == ["roll_current_80x200mm"])
        // Beside the range, one fixed size (the default cut), without which CUPS 2.4 makes no queue.
        let database = printer.collections("media-col-database").compactMap { $0.collections("media-size").first?.int("y-dimension") }
        #expect(database == [20_000])
        #expect(printer[named: "printer-resolution-default"]?.value?.resolution == IPPResolution(horizontal: 203, vertical: 203))
        #expect(printer.ints("finishings-supported") == [3, 60])
        // The same role on the same box has the same UUID in every process; another role has its own.
        let again = try await RoleDesk.make(roles: [.receipt, .coupon])
        let uuid = try #require(printer.string("printer-uuid"))
        #expect(again.server.identity.uuid(for: .receipt) == uuid && again.server.identity.uuid(for: .coupon) != uuid)
        #expect(uuid.hasPrefix("urn:uuid:") && uuid.count == 45)
    }

    @Test func requestedAttributesChooseByNameAndByGroup() async throws {
        var desk = try await RoleDesk.make()
        let some = await desk.send(0x000B, [.keyword("requested-attributes", "printer-state", "media-col-ready").inOperation])
        #expect(Set(some.attributes(in: .printer).map(\.name)) == ["printer-state", "media-col-ready"])
        let template = await desk.send(0x000B, [.keyword("requested-attributes", "job-template").inOperation])
        let names = Set(template.attributes(in: .printer).map(\.name))
        #expect(names.contains("copies-supported") && names.contains("media-size-supported") && !names.contains("printer-state"))
        #expect(!names.contains("media-col-database"), "only when named")
        let all = await desk.send(0x000B)
        #expect(!all.attributes(in: .printer).contains { $0.name == "media-col-database" })
        #expect(all.attributes(in: .printer).strings("finishings-col-supported") == ["finishing-template"])
        // The URIs name the host the client's printer-uri named (libcups sends "Host: localhost" to loopback).
        let byName = await desk.send(0x000B, printerURI: "ipp://till-3.local:8631/ipp/print/receipt")
        #expect(byName.attributes(in: .printer).string("printer-more-info") == "http://till-3.local:8631/ipp/print/receipt")
    }

    @Test func aPaperOutPrinterShowsAsStoppedWithItsReason() async throws {
        var printer = RoleDesk.receiptPrinter
        printer.state = .stopped
        printer.stateReasons = [StateReason(keyword: "media-empty", severity: .error)]
        var desk = try await RoleDesk.make(printer: printer)
        let attributes = await desk.send(0x000B).attributes(in: .printer)
        #expect(attributes.int("printer-state") == 5)
        #expect(attributes.strings("printer-state-reasons") == ["media-empty"])
    }

    @Test func whatTheSpoolerFoundOverridesTheSavedStateAndTheBackupTakesOver() async throws {
        let found = Mutex<[PrinterCondition]>([])
        var desk = try await RoleDesk.make(conditions: { found.withLock { $0 } })
        var backup = RoleDesk.receiptPrinter
        backup.name = "Backup TM-80"
        _ = try await desk.store.assign(uri: "ipp://127.0.0.1:2/ipp/print", serviceName: nil, capabilities: backup, to: .receipt, as: .backup)
        #expect(await desk.send(0x000B).attributes(in: .printer).string("printer-make-and-model")?.contains("Counter TM-80") == true)
        // A job met the primary out of paper: the role printer describes the backup it now prints on.
        found.withLock { $0 = [PrinterCondition(role: .receipt, uri: "ipp://127.0.0.1:1/ipp/print", trouble: ["media-empty"], warnings: nil)] }
        let attributes = await desk.send(0x000B).attributes(in: .printer)
        #expect(attributes.string("printer-make-and-model")?.contains("Backup TM-80") == true, "\(attributes.string("printer-make-and-model") ?? "")")
        // Every printer of the role in trouble: the primary, stopped, with the reason the spooler saw.
        found.withLock { $0.append(PrinterCondition(role: .receipt, uri: "ipp://127.0.0.1:2/ipp/print", trouble: ["unreachable"], warnings: nil)) }
        let stopped = await desk.send(0x000B).attributes(in: .printer)
        #expect(stopped.int("printer-state") == 5 && stopped.strings("printer-state-reasons") == ["media-empty"])
    }

    @Test func printJobQueuesARoleJobWhoseNumberIsTheIPPJobID() async throws {
        var desk = try await RoleDesk.make()
        let answer = await desk.send(0x0002, [.keywordOperation("document-format", "image/jpeg", syntax: .mimeMediaType),
                                              .nameOperation("job-name", "Sale 4711")],
                                     job: [.integer("copies", 2).inJob], document: try RoleDesk.jpeg())
        #expect(answer.status == .ok, "\(answer.statusMessage)")
        let jobGroup = answer.attributes(in: .job)
        let id = try #require(jobGroup.int("job-id"))
        #expect(jobGroup.string("job-uri") == "ipp://localhost:8631/ipp/print/receipt/\(id)")
        let job = try await desk.store.job(JobID(Int64(id)))
        #expect(job.role == .receipt && job.name == "Sale 4711" && job.copies == 2 && job.state == .queued)
        #expect(try await desk.store.submitter(of: job.id) == "till")

        let attributes = await desk.send(0x0009, [.integerOperation("job-id", id)])
        #expect(attributes.attributes(in: .job).int("job-state") == 3)
        #expect(attributes.attributes(in: .job).strings("job-state-reasons") == ["job-queued"])
    }

    @Test func createJobThenSendDocumentKeepsTheNumberItGave() async throws {
        var desk = try await RoleDesk.make()
        let created = await desk.send(0x0005, [.nameOperation("job-name", "Two-step")])
        let id = try #require(created.attributes(in: .job).int("job-id"))
        #expect(created.attributes(in: .job).strings("job-state-reasons") == ["job-incoming"])
        // An earlier job queued meanwhile does not take the number.
        let other = await desk.send(0x0002, document: try RoleDesk.jpeg())
        #expect(other.attributes(in: .job).int("job-id") != id)
        #expect(await desk.send(0x0006, [.integerOperation("job-id", id)], document: try RoleDesk.jpeg()).status == .badRequest,
                "last-document is required")
        let sent = await desk.send(0x0006, [.integerOperation("job-id", id), .booleanOperation("last-document", true)],
                                   document: try RoleDesk.jpeg())
        #expect(sent.status == .ok, "\(sent.statusMessage)")
        #expect(try await desk.store.job(JobID(Int64(id))).name == "Two-step")
        #expect(await desk.send(0x0006, [.integerOperation("job-id", id), .booleanOperation("last-document", true)],
                                document: try RoleDesk.jpeg()).status == .multipleDocumentJobsNotSupported)
    }

    @Test func onlyTheSenderCancelsAndAFinishedJobCannotBe() async throws {
        var desk = try await RoleDesk.make()
        let id = try #require(await desk.send(0x0002, document: try RoleDesk.jpeg()).attributes(in: .job).int("job-id"))
        #expect(await desk.send(0x0008, user: "someone-else", [.integerOperation("job-id", id)]).status == .notAuthorized)
        #expect(await desk.send(0x0008, [.integerOperation("job-id", id)]).status == .ok)
        #expect(try await desk.store.job(JobID(Int64(id))).state == .canceled)
        #expect(await desk.send(0x0008, [.integerOperation("job-id", id)]).status == .notPossible)
        #expect(await desk.send(0x0009, [.integerOperation("job-id", 999)]).status == .notFound)
    }

    @Test func aCutLengthOutsideTheRollsRangeIsRefusedOrLeftOut() async throws {
        var desk = try await RoleDesk.make()
        let tooLong = IPPAttribute.collection("media-col", [.collection("media-size", [.integer("x-dimension", 8000),
                                                                                       .integer("y-dimension", 400_000)])]).inJob
        let strict = await desk.send(0x0004, job: [tooLong])
        #expect(strict.status == .attributesOrValuesNotSupported)
        #expect(strict.attributes(in: .unsupported).map(\.name) == ["media-col"])
        let lenient = await desk.send(0x0002, job: [tooLong], document: try RoleDesk.jpeg())
        #expect(lenient.status == .okIgnoredOrSubstituted, "printed without the length, and said so")
        let fidelity = await desk.send(0x0002, [.booleanOperation("ipp-attribute-fidelity", true)], job: [tooLong],
                                       document: try RoleDesk.jpeg())
        #expect(fidelity.status == .attributesOrValuesNotSupported)
        let within = IPPAttribute.collection("media-col", [.collection("media-size", [.integer("x-dimension", 8000),
                                                                                      .integer("y-dimension", 12_000)])]).inJob
        #expect(await desk.send(0x0004, job: [within]).status == .ok)
        #expect(await desk.send(0x0004, job: [.keyword("media", "roll_current_80x120mm").inJob]).status == .ok)
        #expect(await desk.send(0x0004, job: [.keyword("media", "iso_a4_210x297mm").inJob]).status == .attributesOrValuesNotSupported)
    }

    @Test func aFormatThePrinterDoesNotTakeIsRefusedAndBadBytesAreNamed() async throws {
        var desk = try await RoleDesk.make()
        let pdf = await desk.send(0x0002, [.keywordOperation("document-format", "application/pdf", syntax: .mimeMediaType)],
                                  document: Data("%PDF-1.4\n%%EOF\n".utf8))
        #expect(pdf.status == .documentFormatNotSupported, "PDF is not listed for a primary that takes none: \(pdf.statusMessage)")
        let notJPEG = await desk.send(0x0002, [.keywordOperation("document-format", "image/jpeg", syntax: .mimeMediaType)],
                                      document: Data("not a picture".utf8))
        #expect(notJPEG.status == .documentFormatError)
        #expect(try await desk.store.jobs(includeFinished: true).isEmpty, "nothing was queued")
        #expect(await desk.send(0x0002).status == .badRequest, "Print-Job without a document")
    }
}

extension IPPAttribute {
    var inOperation: IPPAttribute { var copy = self; copy.group = .operation; return copy }
    var inJob: IPPAttribute { var copy = self; copy.group = .job; return copy }
    static func keywordOperation(_ name: String, _ value: String, syntax: IPPSyntax = .keyword) -> IPPAttribute {
        IPPAttribute(name: name, syntax: syntax, group: .operation, values: [.string(value)])
    }
    static func nameOperation(_ name: String, _ value: String) -> IPPAttribute { keywordOperation(name, value, syntax: .name) }
    static func integerOperation(_ name: String, _ value: Int) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .integer, group: .operation, values: [.integer(value)])
    }
    static func booleanOperation(_ name: String, _ value: Bool) -> IPPAttribute {
        IPPAttribute(name: name, syntax: .boolean, group: .operation, values: [.boolean(value)])
    }
}
