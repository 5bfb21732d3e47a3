public import PrintModel

/// One line of the picker: a printer found through DNS-SD and, once contacted,
/// what it said about itself.
public struct PrinterListing: Sendable, Identifiable, Equatable {
    /// Stable for the life of a listing: the picker's number for it never changes.
    public var number: Int
    public var discovered: DiscoveredPrinter
    public var contact: ContactState

    /// How far contacting the printer has got.
    public enum ContactState: Sendable, Equatable {
        case pending
        case answered(PrinterCapabilities)
        /// It could not be contacted: the message says why and what to do.
        case failed(String)
        /// A raw printer whose model the catalog does not know, so neither its
        /// language nor its paper is known and it is not contacted: the
        /// message says how to add it (`--model`).
        case modelUnknown(String)
    }

    public init(number: Int, discovered: DiscoveredPrinter, contact: ContactState = .pending) {
        self.number = number; self.discovered = discovered; self.contact = contact
    }

    public var id: String { discovered.id }

    public var capabilities: PrinterCapabilities? {
        if case .answered(let capabilities) = contact { return capabilities }
        return nil
    }

    public var name: String { capabilities?.name ?? discovered.serviceName }
    public var location: String { capabilities?.location.nonEmpty ?? discovered.txt.location ?? "" }
    public var makeAndModel: String { capabilities?.makeAndModel.nonEmpty ?? discovered.txt.makeAndModel ?? "" }
    public var uri: String { discovered.uri }

    /// The kinds known so far: the printer's answer, else the TXT `kind` key.
    /// Nil while neither has said anything.
    public var kinds: Set<JobKind>? {
        if let capabilities, !capabilities.kinds.isEmpty { return capabilities.kinds }
        let announced = discovered.txt.kinds
        if !announced.isEmpty { return announced }
        if case .pending = contact { return nil }
        return []
    }

    /// `idle`, `stopped (media-empty)`, `checking...`, `unreachable`,
    /// `raw, model unknown: add it with --model`.
    public var stateSummary: String {
        switch contact {
        case .pending: return "checking..."
        case .failed: return "unreachable"
        case .modelUnknown: return "raw, model unknown: add it with --model"
        case .answered(let capabilities):
            let reasons = capabilities.stateReasons.map(\.keyword).filter { $0 != "none" }
            return reasons.isEmpty ? capabilities.state.rawValue
                : "\(capabilities.state.rawValue) (\(reasons.joined(separator: ", ")))"
        }
    }

    /// Whether the picker shows this printer for `wanted` kinds (Apple's
    /// `shouldShowPrinter`). An empty `wanted` shows everything; a printer
    /// whose kinds are not known yet is held back until they are.
    public func matches(_ wanted: Set<JobKind>) -> Bool {
        guard !wanted.isEmpty else { return true }
        guard let kinds else { return false }
        return !kinds.isDisjoint(with: wanted)
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
