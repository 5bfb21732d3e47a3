import PrintModel
import RolePrinters
import Synchronization
import Triggers

/// Identify-Printer's `flash`, handed to the role's status lights: each
/// running light registers here, and a flash blinks it for `duration`,
/// during which its printer's state does not take it back.
final class LightFlashes: RoleSignals {
    /// How long a light blinks to be found: long enough to walk to the counter and look.
    static let duration: Duration = .seconds(15)

    private struct Registered {
        var lights: [ObjectIdentifier: StatusLight] = [:]
        var flashingUntil: [Role: ContinuousClock.Instant] = [:]
    }
    private let state = Mutex<[Role: Registered]>([:])

    /// A light of `role` is running.
    func register(_ light: StatusLight, for role: Role) {
        state.withLock { $0[role, default: Registered()].lights[ObjectIdentifier(light)] = light }
    }

    /// The light stopped (a reload, the agent's end).
    func unregister(_ light: StatusLight, for role: Role) {
        _ = state.withLock { $0[role]?.lights.removeValue(forKey: ObjectIdentifier(light)) }
    }

    /// Whether the role's lights are flashing now: their state must wait.
    func isFlashing(_ role: Role, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { ($0[role]?.flashingUntil[role]).map { $0 > now } ?? false }
    }

    func flash(_ role: Role) async -> String? {
        let lights = state.withLock { registered -> [StatusLight] in
            guard let found = registered[role], !found.lights.isEmpty else { return [] }
            registered[role]?.flashingUntil[role] = .now + Self.duration
            return Array(found.lights.values)
        }
        guard !lights.isEmpty else { return nil }
        for light in lights { light.show(.blinking) }
        return "The \(role) light blinks for \(Self.duration.components.seconds) s."
    }
}
