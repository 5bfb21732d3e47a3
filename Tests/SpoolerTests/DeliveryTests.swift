import Foundation
import IPP
import PrintModel
import Rendering
import Simulator
import Spooler
import Store
import Testing

/// Jobs delivered by the spooler to real IPP printers (ippeveprinter,
/// recording what each job carried), through libcups, from a real database.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DeliveryTests {
    @Test func aReceiptArrivesCutAtItsLengthWithItsNameAndMarker() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Spool Receipt")
        defer { printer.stop() }
        try await lab.assign(printer, to: "receipt")
        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 4711, till 3")

        let job = try await lab.spooler().deliver(queued.id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        #expect(job.impressionsCompleted == 1)
        let cut = try #require(job.cutLengths?.first)

        let received = try #require(try await printer.receivedJobs(atLeast: 1).first)
        #expect(received.jobName == "Receipt 4711, till 3 [\(job.marker)]")
        #expect(received.attributes["IPP_MEDIA_COL"]?.contains("x-dimension=8000 y-dimension=\(cut)") == true,
                "\(received.attributes)")
        #expect(received.attributes["IPP_FINISHINGS"] == "trim-after-pages")
        // The page itself is as long as the y-dimension says, at the printer's resolution.
        let page = try #require(try RasterReader.read(data: received.document()).first)
        #expect(page.header.width == 639)
        #expect(page.header.height == Length(hundredthsOfMillimetre: cut).dots(at: 203))
        #expect(lab.events.lines.contains { $0.contains("job \(job.id) \"Receipt 4711, till 3\" (receipt) completed") })
        // A receipt this quick ends within the first looks, its ticket recorded with the
        // finish rather than by a commit of its own; either way the job keeps the
        // printer's id for it.
        let id = try #require(job.printerJobID)
        let atPrinter = try await PrinterJobs.status(of: id, at: printer.uri)
        #expect(atPrinter.state == .completed)
        #expect(atPrinter.name == "Receipt 4711, till 3 [\(job.marker)]")
    }

    @Test func eachPrinterGetsItsOwnPaper() async throws {
        let lab = try await SpoolLab.make()
        let narrow = try await lab.printer(.receipt58mm, "Spool 58")
        let label = try await lab.printer(.label4x6, "Spool Label")
        defer { narrow.stop(); label.stop() }
        try await lab.assign(narrow, to: "coupon")
        try await lab.assign(label, to: "label")
        let coupon = try await lab.enqueue("receipt", role: "coupon", name: "Coupon 12")
        let parcel = try await lab.enqueue("shipping-label", role: "label", name: "Parcel WEB-88213")
        let spooler = lab.spooler()
        #expect(try await spooler.deliver(coupon.id).state == .completed)
        #expect(try await spooler.deliver(parcel.id).state == .completed)

        let couponCol = try #require(try await narrow.receivedJobs(atLeast: 1).first?.attributes["IPP_MEDIA_COL"])
        #expect(couponCol.contains("x-dimension=5800"), "\(couponCol)")
        let labelCol = try #require(try await label.receivedJobs(atLeast: 1).first?.attributes["IPP_MEDIA_COL"])
        #expect(labelCol.contains("x-dimension=10160 y-dimension=15240"), "\(labelCol)")
    }

    @Test func aBusyPrinterIsTriedAgainAndGetsTheJob() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Spool Busy", delay: .milliseconds(1500))
        defer { printer.stop() }
        try await lab.assign(printer, to: "receipt")
        // Someone else's job keeps the printer busy.
        let other = try PrintJobRequest(document: RasterWriter(format: .pwg).encode(
            [RasterPage(blankWidth: 639, height: 100, resolution: Resolution(203), format: .black1)]),
            documentFormat: "image/pwg-raster", jobName: "Someone else's job")
        _ = try await PrinterJobs.submit(other, to: printer.uri)

        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 4712")
        let job = try await lab.spooler().deliver(queued.id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        #expect(lab.events.lines.contains { $0.contains("busy") && $0.contains("Trying again") })
        #expect(try await printer.receivedJobs(atLeast: 2).map(\.jobName).contains { $0.contains(job.marker) })
    }

    @Test func outOfPaperHoldsTheJobUntilRefilled() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Spool Paper")
        defer { printer.stop() }
        try await lab.assign(printer, to: "receipt")
        try await printer.setMediaLevel(0)
        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 4713")
        let spooler = lab.spooler()
        let delivery = Task { try await spooler.deliver(queued.id) }

        let waiting = try await lab.job(queued.id) { $0.state == .waiting }
        #expect(waiting.lastError?.contains("media-empty") == true, "\(waiting.lastError ?? "")")
        #expect(try printer.receivedJobs().isEmpty)
        // Reported once, however many times the spooler looked.
        #expect(lab.events.lines.filter { $0.contains("needs attention") }.count == 1)

        try await printer.setMediaLevel(250)
        let job = try await delivery.value
        #expect(job.state == .completed)
        #expect(lab.events.lines.contains { $0.contains("is ready again") })
    }

    @Test func jobsWaitForAStoppedPrinterAndGoInOrderWhenItIsBack() async throws {
        let lab = try await SpoolLab.make()
        var printer = try await lab.printer(.receipt80mm, "Spool Restart")
        try await lab.assign(printer, to: "receipt")
        printer.stop()
        var queued: [PrintJob] = []
        for number in 1...3 { queued.append(try await lab.enqueue("receipt", role: "receipt", name: "Receipt \(number)")) }
        let spooler = lab.spooler()
        let running = Task { try await spooler.run() }
        defer { running.cancel() }

        let waiting = try await lab.job(queued[0].id) { $0.state == .waiting }
        #expect(waiting.stateReasons.contains("unreachable") || waiting.lastError != nil)
        printer = try await lab.lab.restart(printer)
        defer { printer.stop() }
        for job in queued { _ = try await lab.job(job.id) { $0.state == .completed } }
        let names = try await printer.receivedJobs(atLeast: 3).sorted { $0.jobID < $1.jobID }.map(\.jobName)
        #expect(names == queued.map { "\($0.name) [\($0.marker)]" })
    }

    @Test func aBackupPrintsWhenThePrimaryStaysAway() async throws {
        let lab = try await SpoolLab.make()
        let primary = try await lab.printer(.receipt80mm, "Spool Primary")
        let backup = try await lab.printer(.receipt80mm, "Spool Backup")
        defer { backup.stop() }
        try await lab.assign(primary, to: "receipt")
        try await lab.assign(backup, to: "receipt", as: .backup)
        primary.stop()
        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 4714")
        let job = try await lab.spooler().deliver(queued.id)
        #expect(job.state == .completed)
        #expect(job.printer?.uri == backup.uri)
        #expect(lab.events.lines.contains { $0.contains("printing on the backup") })
        #expect(try await backup.receivedJobs(atLeast: 1).count == 1)
    }

    @Test func cancelReachesThePrinter() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Spool Cancel", delay: .seconds(3))
        defer { printer.stop() }
        try await lab.assign(printer, to: "receipt")
        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 4715")
        let spooler = lab.spooler()
        let delivery = Task { try await spooler.deliver(queued.id) }
        let sent = try await lab.job(queued.id) { $0.state == .sent }
        _ = try await lab.store.requestCancel(queued.id)
        let job = try await delivery.value
        #expect(job.state == .canceled)
        let atPrinter = try await PrinterJobs.status(of: try #require(sent.printerJobID), at: printer.uri)
        #expect(atPrinter.state == .canceled)
    }

    @Test func badDataFailsAtOnceWithTheReason() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt80mm, "Spool Bad")
        defer { printer.stop() }
        try await lab.assign(printer, to: "receipt")
        let queued = try await lab.enqueue("receipt", role: "receipt", name: "Receipt 4716", data: #"{"items": []}"#)
        let job = try await lab.spooler().deliver(queued.id)
        #expect(job.state == .failed)
        #expect(job.lastError?.contains("the data has no \"store.name\"") == true)
        #expect(try printer.receivedJobs().isEmpty)
    }
}

@Suite(.timeLimit(.minutes(2))) struct NamedMediaFallbackTests {
    /// The saved capabilities say the roll cuts from 5 mm, the printer itself
    /// from 20 mm: it refuses the exact size, and the job goes with the named
    /// size of the roll it has (its shortest cut, nearest to this short ticket).
    @Test func aRefusedMediaColIsSentAgainWithTheNamedSize() async throws {
        let lab = try await SpoolLab.make()
        let printer = try await lab.printer(.receipt58mm, "Spool Fallback")
        defer { printer.stop() }
        try await lab.assign(printer, to: "ticket")
        var saved = try #require(try await lab.store.assignments(for: try Role("ticket")).first?.printer)
        saved.capabilities.rolls[0].cutLengths = .millimetres(5)...saved.capabilities.rolls[0].cutLengths.upperBound
        try await lab.store.recordContact(printerID: saved.id, capabilities: saved.capabilities)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-short-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"<template><text>No. 17</text></template>"#.write(to: folder.appendingPathComponent("stub.xml"),
                                                                 atomically: true, encoding: .utf8)
        let queued = try await lab.store.enqueue(name: "Ticket 17", role: try Role("ticket"),
                                                 content: .template(name: "stub", dataJSON: "{}"))
        let job = try await lab.spooler(templates: [folder.path]).deliver(queued.id)
        #expect(job.state == .completed, "\(job.lastError ?? "")")
        #expect(try #require(job.cutLengths?.first) < 2000)   // shorter than the printer's real shortest cut
        #expect(job.stateReasons.contains("sent-with-named-media-roll_min_58x20mm"), "\(job.stateReasons)")
        #expect(lab.events.lines.contains { $0.contains("sent with its named size roll_min_58x20mm") })
        let received = try #require(try await printer.receivedJobs(atLeast: 1).first)
        #expect(received.attributes["IPP_MEDIA"] == "roll_min_58x20mm", "\(received.attributes)")
    }
}
