/// Decides when a browse has `.settled`: every service type's browser has
/// said ALL_FOR_NOW, and every resolver started before that moment has
/// finished, successfully or not. A value type so the rule is testable alone.
struct SettleTracker: Sendable {
    private var typesBrowsing: Set<String>
    private var pendingResolvers: Set<ServiceKey> = []
    /// True once `.settled` has been due; it is due only once per browse.
    private(set) var isSettled = false

    init(serviceTypes: [String]) {
        typesBrowsing = Set(serviceTypes)
    }

    /// The browsers are running. Returns true when there was nothing to
    /// browse at all, which settles at once.
    mutating func browsingStarted() -> Bool { settleIfDue() }

    /// A resolver started. It counts only while some browser has not yet
    /// reported ALL_FOR_NOW: services that appear later are live updates, and
    /// waiting for them would let a busy network postpone `.settled` forever.
    mutating func resolverStarted(_ key: ServiceKey) {
        if !isSettled && !typesBrowsing.isEmpty { pendingResolvers.insert(key) }
    }

    /// A resolver found or failed for the first time, or was dropped unfinished
    /// because its service went away. Returns true when this settles the browse.
    mutating func resolverFinished(_ key: ServiceKey) -> Bool {
        pendingResolvers.remove(key)
        return settleIfDue()
    }

    /// A browser reported ALL_FOR_NOW. Returns true when this settles the browse.
    mutating func browserSaidAllForNow(_ serviceType: String) -> Bool {
        typesBrowsing.remove(serviceType)
        return settleIfDue()
    }

    private mutating func settleIfDue() -> Bool {
        guard !isSettled, typesBrowsing.isEmpty, pendingResolvers.isEmpty else { return false }
        isSettled = true
        return true
    }
}
