import IPP
public import PrintModel

extension RoleSetup {
    /// A saved printer and what contacting it now found.
    public struct Checked: Sendable {
        public var assignment: RoleAssignment
        public var result: Result<PrinterCapabilities, SetupError>
        /// The certificate pin in force after the check (nil: ipp, raw, or not pinned).
        public var pin: CertificateFingerprint?
        /// True when this check pinned the certificate of a printer saved
        /// before pins existed.
        public var pinnedNow: Bool

        public var isReady: Bool {
            if case .success(let capabilities) = result {
                return capabilities.state != .stopped && capabilities.attentionReasons.isEmpty
            }
            return false
        }
    }

    /// Contacts every saved printer (of `role`, or of every role), all at once,
    /// and records what each said. Results come back in role order.
    ///
    /// An ipps printer must present its pinned certificate, or it is reported
    /// with `.certificateChanged`. One saved before pins existed is pinned
    /// here, at its first successful contact, since an administrator runs this
    /// (`pinnedNow` says so); the agent never pins by itself.
    public func check(role: Role? = nil) async throws -> [Checked] {
        let assignments = try await store.assignments(for: role)
        let printers = Dictionary(assignments.map { ($0.printer.id, $0.printer) }, uniquingKeysWith: { a, _ in a })
        let timeout = contactTimeout
        let setup = self
        // A named struct, not a tuple: Swift 6.3's optimiser returned garbage
        // printer ids from child tasks yielding (Int64, Result<...>) tuples
        // (release builds only; measured with `kioskprint-demo`).
        let answers = await withTaskGroup(of: Answer.self) { group in
            for printer in printers.values {
                group.addTask {
                    if RawContact.isRaw(printer.uri) {
                        return Answer(printer: printer, result: await setup.contactSaved(raw: printer, timeout: timeout))
                    }
                    return await Self.contactSaved(ipp: printer, timeout: timeout)
                }
            }
            var answers: [Int64: Answer] = [:]
            for await answer in group { answers[answer.printer.id] = answer }
            return answers
        }
        var pins: [Int64: (pin: CertificateFingerprint?, now: Bool)] = [:]
        for (id, answer) in answers {
            pins[id] = (answer.printer.certificatePin, false)
            guard case .success(let capabilities) = answer.result else { continue }
            try await store.recordContact(printerID: id, capabilities: capabilities)
            if answer.printer.certificatePin == nil, let presented = answer.presented,
               try await store.pinCertificate(printerID: id, to: presented, replacing: nil) {
                pins[id] = (presented, true)
            }
        }
        return assignments.map { assignment in
            let printer = assignment.printer
            let result = answers[printer.id]?.result ?? .failure(.unreachable("\(printer.uri) gave no answer."))
            let pin = pins[printer.id] ?? (printer.certificatePin, false)
            return Checked(assignment: assignment, result: result, pin: pin.pin, pinnedNow: pin.now)
        }
    }

    /// What contacting one saved printer found.
    private struct Answer: Sendable {
        var printer: SavedPrinter
        var result: Result<PrinterCapabilities, SetupError>
        /// The certificate an ipps printer presented.
        var presented: CertificateFingerprint?
    }

    /// Contacts a saved IPP printer, holding it to its pin.
    private static func contactSaved(ipp printer: SavedPrinter, timeout: Duration) async -> Answer {
        do {
            let contacted = try await PrinterContact.contactWithCertificate(uri: printer.uri, timeout: timeout,
                                                                            pin: printer.certificatePin)
            return Answer(printer: printer, result: .success(contacted.capabilities), presented: contacted.certificate)
        } catch .certificateChanged(let mismatch) {
            return Answer(printer: printer, result: .failure(.certificateChanged(
                printer: printer.name, id: printer.id, uri: mismatch.uri, pinned: mismatch.pinned,
                presented: mismatch.presented)))
        } catch {
            return Answer(printer: printer, result: .failure(.unreachable("\(error)")))
        }
    }
}
