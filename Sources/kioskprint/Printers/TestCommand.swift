import Agent
import ArgumentParser
import CommandLineOutput
import Foundation
import PrintModel
import Spooler
import Store
import Templates

/// `kioskprint printers test ROLE`: a test page through the real queue.
struct TestPageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Print a test page on the printer that holds a role: its name, paper, resolution and a ruler for the cut.",
        discussion: "The page goes through the queue like any job and is followed until it has printed.")

    @Argument(help: "The role whose printer to test.")
    var role: Role

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let store = try database.open()
        guard let printer = try await store.assignments(for: role).first(where: \.isPrimary)?.printer else {
            throw CLIError("No printer holds the role \"\(role)\". Pick one with `kioskprint printers pick --role \(role)`.")
        }
        let job = try await store.enqueue(name: TestPage.jobName(role: role, printer: printer), role: role,
                                          content: .template(name: TestPage.template,
                                                             dataJSON: TestPage.dataJSON(role: role, printer: printer)))
        print("Job \(job.id) queued: \"\(job.name)\".")
        let watch = JobWatch(store: store, catalog: TemplateCatalog(),
                             databasePath: DatabaseLocation.resolve(explicit: database.database)) { print($0) }
        let ended = try await watch.delivered(job.id)
        guard ended.state == .completed else {
            throw CLIError("The test page \(ended.state): \(ended.lastError ?? "no reason given"). See `kioskprint jobs show \(ended.id)`.")
        }
        let cut = ended.cutLengths?.first.map { String(format: ", cut at %.2f mm", Double($0) / 100) } ?? ""
        print("Test page printed on \(printer.name)\(cut). Measure the ruler: its lines are 5 mm apart.")
    }
}
