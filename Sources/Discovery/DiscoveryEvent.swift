public import PrintModel

/// What a live browse reports, one printer at a time.
///
/// A printer is identified by `DiscoveredPrinter.id` (its DNS-SD `UUID`, or
/// its service name when it announces none), so the same printer seen as
/// `_ipp._tcp` and `_ipps._tcp`, or on several interfaces, is reported once.
public enum DiscoveryEvent: Sendable, Equatable {
    /// A printer not seen before in this browse.
    case appeared(DiscoveredPrinter)
    /// A known printer now reads differently: its TXT record changed, or the
    /// preferred record for it changed (its `_ipps` record came or went).
    case changed(DiscoveredPrinter)
    /// The last record of this printer went away.
    case disappeared(id: String)
    /// Sent once: every service type has been browsed to the end of what the
    /// network answered at once, and every service found by then has been
    /// resolved (or failed to resolve). A list taken now is complete, so a
    /// command-line listing need not wait for a fixed timeout.
    case settled
}
