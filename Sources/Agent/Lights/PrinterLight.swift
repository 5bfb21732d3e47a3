import Configuration
import GPIO
import IPP
import Logging
import PrintModel
import Store
import Triggers

/// One status light at work: it shows the state of its role's primary
/// printer, asked every `check-every`.
struct PrinterLight: Sendable {
    let settings: LightSettings
    let gpio: any GPIOLines
    let store: KioskStore
    let logger: Logger

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
        defer { light.stop() }
        while !Task.isCancelled {
            let (pattern, why) = await currentPattern()
            if pattern != light.pattern {
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
        do {
            let status = try await PrinterContact.state(uri: printer.uri, timeout: .seconds(3))
            return (Self.pattern(for: status), "\(printer.name) is \(status.state)"
                + (status.reasons.isEmpty ? "" : " (\(status.reasons.map(\.keyword).joined(separator: ", ")))"))
        } catch {
            return (.off, "\(printer.name) cannot be reached: \(error)")
        }
    }

    /// Ready: on. Stopped, or a reason that needs a person (paper, jam,
    /// cover): blinking. Unreachable is decided by the caller: off.
    static func pattern(for status: PrinterStatus) -> LightPattern {
        status.state == .stopped || status.needsAttention ? .blinking : .on
    }
}
