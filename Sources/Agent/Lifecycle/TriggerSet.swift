import KioskConfiguration
import GPIO
import Logging
import Spooler

/// Everything one configuration starts: a task per folder, button and
/// light, all under one parent task so a reload can end them together and
/// start the new configuration's.
struct TriggerSet: Sendable {
    let configuration: AgentConfiguration
    let intake: JobIntake
    let gpio: any GPIOLines
    let logger: Logger
    let jobQueued: @Sendable () -> Void
    /// Identify-Printer's flashes, for the lights.
    var flashes: LightFlashes?

    /// Runs every trigger until the task is cancelled. A folder that cannot
    /// be watched is logged; the other triggers go on.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            for folder in configuration.folders {
                let jobs = FolderJobs(settings: folder, intake: intake, logger: logger, jobQueued: jobQueued)
                group.addTask {
                    do { try await jobs.run() } catch is CancellationError {} catch {
                        logger.error("\(folder.key) (\(folder.path)) is not watched: \(error)")
                    }
                }
            }
            for button in configuration.buttons {
                let jobs = ButtonJobs(settings: button, gpio: gpio, intake: intake, box: configuration.box,
                                      logger: logger, jobQueued: jobQueued)
                group.addTask { await jobs.run() }
            }
            for light in configuration.lights {
                let light = PrinterLight(settings: light, gpio: gpio, store: intake.store, logger: logger, flashes: flashes)
                group.addTask { await light.run() }
            }
        }
    }

    /// "2 folders, 1 button, 2 lights", for the status line.
    var summary: String { Self.summary(of: configuration) }

    static func summary(of configuration: AgentConfiguration) -> String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return [count(configuration.folders.count, "folder"), count(configuration.buttons.count, "button"),
                count(configuration.lights.count, "light")].joined(separator: ", ")
    }
}
