import KioskConfiguration
import Foundation
import GPIO
import Logging
import PrintModel
import Spooler
import Store
import Templates
import Triggers

/// One push button at work: each press runs the configured action, which
/// only queues a job (the spooler prints it).
struct ButtonJobs: Sendable {
    let settings: ButtonSettings
    let gpio: any GPIOLines
    let intake: JobIntake
    let box: String
    let logger: Logger
    let jobQueued: @Sendable () -> Void
    /// Opens a role's cash drawer, for a `drawer = "ROLE"` button.
    var drawer: CashDrawer { CashDrawer(store: intake.store) }

    /// Watches the button until the task is cancelled. A chip or line that
    /// cannot be used is logged, naming the settings to change, and this
    /// button stays off; the agent's other triggers go on.
    func run() async {
        let source: any EdgeSource
        do {
            source = try gpio.watch(settings.line, consumer: "kioskprint \(settings.name)",
                                    settings: InputSettings(activeLow: settings.activeLow, bias: settings.bias))
        } catch {
            let message = "\(settings.key) \"\(settings.name)\" is not working: "
                + "\(error.description(chipSetting: "\(settings.key).chip", lineSetting: "\(settings.key).line")) "
                + "The other triggers keep working."
            logger.error("\(message)")
            return
        }
        logger.info("button \"\(settings.name)\" ready on \(settings.line) (\(settings.key))")
        // Cancelling this task ends the iteration (the stream lets go of the
        // line when its consumer goes); close() then waits for the release.
        // Never close from a cancellation handler: close() waits for the
        // reading thread, which needs this task's lock to end the stream.
        let decoder = ButtonDecoder(debounce: settings.debounce, longPressAfter: settings.longPressAfter)
        for await press in ButtonPresses(source, decoder: decoder) {
            let action = press.kind == .long ? (settings.longPress ?? settings.press) : settings.press
            // Seen through even if the agent is stopping: a press is a promise to a customer.
            await Task.detached { await perform(action, press: press) }.value
        }
        source.close()
    }

    /// Runs one press's action.
    func perform(_ action: ButtonAction, press: ButtonPress) async {
        let kind = press.kind == .long ? "long press" : "press"
        do {
            let job: PrintJob
            switch action {
            case .print(let print):
                job = try await printTemplate(print)
            case .reprint(let role):
                guard let last = try await intake.store.lastJob(role: role) else {
                    logger.warning("button \"\(settings.name)\": \(kind), but the role \(role) has printed nothing yet, so there is nothing to reprint.")
                    return
                }
                job = try await intake.queue(name: JobName.cleaned("Reprint of \(last.name)"), role: role, content: last.content, copies: last.copies)
            case .openDrawer(let role):
                await openDrawer(role, kind: kind)
                return
            }
            logger.info("button \"\(settings.name)\": \(kind) queued job \(job.id) \"\(job.name)\" for \(job.role)",
                        metadata: ["job": "\(job.id)", "role": "\(job.role)", "button": "\(settings.name)"])
            jobQueued()
        } catch {
            logger.error(Logger.Message(stringLiteral: "button \"\(settings.name)\": the \(kind) printed nothing: \(error) "
                + "Check the template and data in \(settings.key) of the configuration (`kioskprint config check`)."))
        }
    }

    /// A drawer button opens at once: nothing is queued, as at a till.
    private func openDrawer(_ role: Role, kind: String) async {
        let metadata: Logger.Metadata = ["role": "\(role)", "button": "\(settings.name)"]
        do {
            let opened = try await drawer.open(role: role)
            switch opened.outcome {
            case .pulsed(let open):
                let state = open.map { $0 ? "; it reads open" : "; it still reads closed (check its cable)" } ?? ""
                logger.notice("button \"\(settings.name)\": \(kind) opened the cash drawer on \(opened.printer.name)\(state)",
                              metadata: metadata)
            case .unsupported(let why), .failed(let why):
                logger.error("button \"\(settings.name)\": \(kind), but the cash drawer did not open: \(why)", metadata: metadata)
            }
        } catch {
            logger.error("button \"\(settings.name)\": \(kind), but the cash drawer did not open: \(error)", metadata: metadata)
        }
    }

    private func printTemplate(_ print: PrintAction) async throws -> PrintJob {
        var values: [String: TemplateData] = [:]
        if case .object(let fixed) = print.fixedData { values = fixed }
        let now = Date()
        values["time"] = .string(Self.format(now, "HH:mm"))
        values["date"] = .string(Self.format(now, "yyyy-MM-dd"))
        values["box"] = .string(box)
        values["button"] = .string(settings.name)
        var name = "\(print.template) from \(settings.name)"
        if let counter = print.counter {
            let number = try await intake.store.nextNumber(of: counter, wrappingAfter: print.counterLimit)
            values["counter"] = .integer(number)
            name = "\(print.template) \(number) (\(box))"
        }
        return try await intake.queueTemplate(print.template, dataJSON: TemplateData.object(values).jsonText,
                                              dataFile: "\(settings.key).press data", role: print.role,
                                              jobName: JobName.cleaned(name), copies: print.copies)
    }

    private static func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
