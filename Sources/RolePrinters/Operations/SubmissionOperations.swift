import Foundation
import IPP
import PrintModel
import Rendering
import Spooler

extension RolePrinterServer {
    /// Validate-Job (RFC 8011 §4.2.3): the answer Print-Job would give, without a job.
    func validateJob(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let printer = try await describe(request)
        var ticket = try JobTicket.read(request, printer: printer)
        // Validate-Job checks strictly: what Print-Job would substitute is refused here (as LPrint and CUPS do).
        ticket.unsupported = ticket.unsupported.map { $0.inGroup(.unsupported) }
        guard ticket.unsupported.isEmpty else {
            throw IPPRefusal(.attributesOrValuesNotSupported,
                             "This printer does not support \(ticket.unsupported.map(\.name).joined(separator: ", ")) as asked.",
                             unsupported: ticket.unsupported)
        }
        return Answer(message: "The job would be accepted.")
    }

    /// Print-Job (RFC 8011 §4.2.1): the document becomes a role job at once.
    func printJob(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let printer = try await describe(request)
        let ticket = try JobTicket.read(request, printer: printer)
        let job = try await queue(request.document, ticket: ticket, user: request.user, printer: printer, id: nil)
        let description = JobDescription(job: job, user: request.user, printerURI: printer.printerURI, position: nil)
        return Answer(unsupported: ticket.unsupported, jobs: [description.summary()])
    }

    /// Create-Job (RFC 8011 §4.2.4): the job's number now, its document by Send-Document.
    func createJob(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let printer = try await describe(request)
        let ticket = try JobTicket.read(request, printer: printer)
        let id: JobID
        do { id = try await store.reserveJobID() } catch {
            throw IPPRefusal(.internalError, "No job number could be taken: \(store.explain(error)) Try again shortly.")
        }
        let waiting = PendingJobs.Pending(id: id, role: request.role, ticket: ticket, user: request.user, createdAt: Date())
        guard await pending.add(waiting) else {
            throw IPPRefusal(.serviceUnavailable, "\(PendingJobs.limit) jobs are already waiting for their documents; "
                + "send their documents, or try again in a minute.")
        }
        return Answer(unsupported: ticket.unsupported, jobs: [Self.pendingDescription(waiting, printerURI: printer.printerURI)
            .filter { ["job-id", "job-uri", "job-state", "job-state-reasons", "job-state-message"].contains($0.name) }])
    }

    /// Send-Document (RFC 8011 §4.3.1). One document per job: a document
    /// sent with last-document false waits for Close-Job or an empty last one.
    func sendDocument(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let id = try RequestCheck.jobID(request)
        guard let last = request.operationAttributes.bool("last-document") else {
            throw IPPRefusal(.badRequest, "Send-Document needs last-document (true for the job's last document).")
        }
        guard var waiting = await pending.find(id, role: request.role) else {
            if (try? await store.job(id))?.role == request.role {
                throw IPPRefusal(.multipleDocumentJobsNotSupported, "Job \(id) already has its document; a job here has one document.")
            }
            throw IPPRefusal(.notFound, "There is no job \(id) waiting for a document on \(request.role).")
        }
        try checkOwner(waiting.user, request, id: id)
        let printer = try await describe(request)
        try waiting.ticket.readDocumentAttributes(request.operationAttributes, printer: printer)
        if !request.document.isEmpty {
            guard waiting.document == nil else {
                throw IPPRefusal(.multipleDocumentJobsNotSupported, "Job \(id) already has a document; a job here has one document.")
            }
            waiting.document = request.document
        }
        guard last else {
            await pending.update(waiting)
            return Answer(jobs: [Self.pendingDescription(waiting, printerURI: printer.printerURI)])
        }
        return try await finish(waiting, printer: printer)
    }

    /// Close-Job (PWG 5100.11 §4.3): the job has all its documents.
    func closeJob(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let id = try RequestCheck.jobID(request)
        guard let waiting = await pending.find(id, role: request.role) else {
            _ = try await jobDescription(id, request)
            return Answer(message: "Job \(id) was already closed.")
        }
        try checkOwner(waiting.user, request, id: id)
        return try await finish(waiting, printer: try await describe(request))
    }

    /// Queues a Create-Job's job with the number it was given.
    private func finish(_ waiting: PendingJobs.Pending, printer: PrinterDescription) async throws(IPPRefusal) -> Answer {
        await pending.remove(waiting.id)
        guard let document = waiting.document else {
            throw IPPRefusal(.badRequest, "Job \(waiting.id) was closed without a document, so it is dropped.")
        }
        let job = try await queue(document, ticket: waiting.ticket, user: waiting.user, printer: printer, id: waiting.id)
        return Answer(jobs: [JobDescription(job: job, user: waiting.user, printerURI: printer.printerURI, position: nil).summary()])
    }

    /// Queues the document through the intake, which writes it once into
    /// the spool folder and checks it the way it checks a dropped file.
    private func queue(_ document: Data, ticket: JobTicket, user: String, printer: PrinterDescription,
                       id: JobID?) async throws(IPPRefusal) -> PrintJob {
        guard !document.isEmpty else {
            throw IPPRefusal(.badRequest, "The request has no document after its attributes.")
        }
        let (fileEnding, language) = try DocumentKind.of(document, declared: ticket.format, printer: printer)
        // Messages name the file as "document.pdf".
        var name = "document.\(fileEnding)"
        var document = document
        if ["jpg", "png"].contains(fileEnding), let length = ticket.length, let capabilities = printer.capabilities {
            // The cut length the client chose applies to an image as to a page it drew.
            let image: GrayImage
            do { image = try GrayImage.decode(data: [UInt8](document), name: name) } catch {
                throw IPPRefusal(.documentFormatError, "\(error)")
            }
            if let page = try? ImagePage.raster(image, length: length, printer: capabilities) {
                document = page
                name = "document.pwg"
            }
        }
        do {
            if fileEnding == "pdf", let ranges = ticket.pageRanges {
                return try await queue(pages: ranges, of: document, named: name, ticket: ticket, user: user, printer: printer, id: id)
            }
            return try await intake.queueDocument(document, named: name, role: printer.role, language: language, jobName: ticket.name,
                                                  copies: ticket.copies, source: "ipp", submittedBy: user, id: id)
        } catch {
            switch error.kind {
            case .refused: throw IPPRefusal(.documentFormatError, error.message)
            case .notStored: throw IPPRefusal(.internalError, error.message)
            }
        }
    }

    /// A PDF of which `page-ranges` keeps some pages: only those are queued,
    /// so whichever printer prints the job prints those pages.
    private func queue(pages ranges: [ClosedRange<Int>], of document: Data, named name: String, ticket: JobTicket, user: String,
                       printer: PrinterDescription, id: JobID?) async throws(IntakeError) -> PrintJob {
        let folder = (intake.spoolFolder as NSString).appendingPathComponent(".ipp-\(UUID().uuidString)")
        let whole = (folder as NSString).appendingPathComponent("whole/\(name)")
        let kept = (folder as NSString).appendingPathComponent(name)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            try FileManager.default.createDirectory(atPath: (whole as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try document.write(to: URL(fileURLWithPath: whole))
        } catch {
            throw IntakeError(.notStored, "The document could not be written to \(intake.spoolFolder): \(error). Nothing was queued.")
        }
        do { try await PDFPages.selecting(path: whole, pages: ranges, into: kept, name: name) } catch {
            throw IntakeError(.refused, error.description)
        }
        return try await intake.queueFile(kept, role: printer.role, jobName: ticket.name, copies: ticket.copies, source: "ipp",
                                          submittedBy: user, id: id)
    }
}
