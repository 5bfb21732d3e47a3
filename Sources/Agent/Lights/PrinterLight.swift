import KioskConfiguration
import GPIO
import Logging
import PrintModel
import Spooler
import Store
import Triggers

/// One status light at work: it shows the state of its role's primary
/// printer, asked every `check-every` through the printer's channel (IPP or
/// a raw language alike).
struct PrinterLight: Sendable {
    let settings: LightSettings
    var channels = PrinterChannels.standard(timeout: .seconds(3))
    let gpio: any GPIOLines
    let store: KioskStore
    let logger: Logger
    /// Identify-Printer's flashes, which take the light over for a while.
    var flashes: LightFlashes?

    /// Drives the light until the task is cancelled, then turns it off. A
    /// line that cannot be used is logged and this light stays off.
    func run() async {
        let line: any OutputLine
        do {
            line = try gpio.output(settings.line, consumer: "kioskprint \(settings.role) light",
                                   activeLow: settings.activeLow)
        } catch {
            let message = "\(settings.key) (the \(settings.role) light) is not working: "
                + "\(error.description(chipSetting: "\(settings.key).chip", lineSetting: "\(settings.key).line")) "
                + "The other triggers keep working."
            logger.error("\(message)")
            return
        }
        let light = StatusLight(line: line) { error in
            logger.warning("the \(settings.role) light could not be set: \(error)")
        }
        flashes?.register(light, for: settings.role)
        defer {
            flashes?.unregister(light, for: settings.role)
            light.stop()
        }
        while !Task.isCancelled {
            let (pattern, why) = await currentPattern()
            if flashes?.isFlashing(settings.role) == true {
                // Found by a person looking for it (Identify-Printer): the state shows again once the flash is over.
            } else if pattern != light.pattern {
                logger.info("\(settings.role) light \(pattern.rawValue): \(why)", metadata: ["role": "\(settings.role)"])
                light.show(pattern)
            }
            do { try await Task.sleep(for: settings.checkEvery) } catch { return }
        }
    }

    private func currentPattern() async -> (LightPattern, String) {
        guard let printer = try? await store.assignments(for: settings.role).first(where: \.isPrimary)?.printer else {
            return (.off, "no printer holds the role \(settings.role)")
        }
        let readiness = await channels.channel(for: ChannelTarget(printer)).readiness()
        let pattern = Self.pattern(for: readiness)
        if let problem = readiness.problem {
            return (pattern, pattern == .off ? "\(printer.name) cannot be reached: \(problem.text)" : problem.text)
        }
        return (pattern, "\(printer.name) is ready"
            + (readiness.warnings.isEmpty ? "" : " but warns of \(readiness.warnings.joined(separator: ", "))"))
    }

    /// Ready: on. Something that needs a person (paper out or near its end,
    /// a jam, the cover): blinking. Unreachable: off.
    static func pattern(for readiness: Readiness) -> LightPattern {
        if let problem = readiness.problem { return problem.reasons == ["unreachable"] ? .off : .blinking }
        return readiness.warnings.isEmpty ? .on : .blinking
    }
}
