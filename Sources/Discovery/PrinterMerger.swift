import PrintModel

/// Folds raw DNS-SD records into printers, and says what changed for the
/// subscriber. A plain value with no Avahi in it, so the preference rules can
/// be tested with synthetic records.
///
/// The rules:
/// - records whose printers share an `id` (the TXT `UUID`, else the service
///   name) are one printer: `_ipp` and `_ipps` announcements of one device,
///   (and a raw `_pdl-datastream` one) of one device, and the same service
///   seen on several interfaces or IP families;
/// - of those records the one shown is the best: `_ipps` before `_ipp` (the
///   same printer over TLS), IPP before raw (IPP says what the printer can
///   do), then IPv4 before IPv6, then the lowest
///   interface index; remaining ties by name, so the choice is deterministic;
/// - a printer is `.appeared` when its first record arrives, `.changed` when
///   its best record now reads differently (another record became best, or
///   the TXT changed), `.disappeared` when its last record goes.
struct PrinterMerger: Sendable {
    /// Every resolved record, by the service instance it came from.
    private var records: [ServiceKey: DiscoveredPrinter] = [:]
    /// What the subscriber was last told about each printer id.
    private var shown: [String: DiscoveredPrinter] = [:]

    init() {}

    /// The printers as the subscriber sees them now.
    var printers: [DiscoveredPrinter] { Array(shown.values) }

    /// A record was resolved, or resolved again with new contents.
    mutating func update(_ key: ServiceKey, _ printer: DiscoveredPrinter) -> [DiscoveryEvent] {
        let previousID = records[key]?.id
        records[key] = printer
        var events: [DiscoveryEvent] = []
        // A TXT change can change the UUID and so move the record to another printer:
        // settle the printer it left first, so the order of events reads naturally.
        if let previousID, previousID != printer.id { events += reconcile(previousID) }
        events += reconcile(printer.id)
        return events
    }

    /// A record went away (the browser's REMOVE).
    mutating func remove(_ key: ServiceKey) -> [DiscoveryEvent] {
        guard let old = records.removeValue(forKey: key) else { return [] }
        return reconcile(old.id)
    }

    /// Compares the best record for `id` with what was shown, and says the difference.
    private mutating func reconcile(_ id: String) -> [DiscoveryEvent] {
        let best = records
            .filter { $0.value.id == id }
            .min { PrinterMerger.isPreferred($0, over: $1) }?
            .value
        switch (shown[id], best) {
        case (nil, nil):
            return []
        case (nil, let best?):
            shown[id] = best
            return [.appeared(best)]
        case (_?, nil):
            shown[id] = nil
            return [.disappeared(id: id)]
        case (let old?, let best?):
            guard old != best else { return [] }
            shown[id] = best
            return [.changed(best)]
        }
    }

    /// The preference order of the records of one printer (see the type's rules).
    static func isPreferred(_ a: (key: ServiceKey, value: DiscoveredPrinter),
                            over b: (key: ServiceKey, value: DiscoveredPrinter)) -> Bool {
        if a.value.secure != b.value.secure { return a.value.secure }
        if a.value.raw != b.value.raw { return !a.value.raw }
        if a.key.family != b.key.family { return a.key.family < b.key.family }
        if a.key.interface != b.key.interface { return a.key.interface < b.key.interface }
        return (a.key.name, a.key.type, a.key.domain) < (b.key.name, b.key.type, b.key.domain)
    }
}
