package import PrintModel

/// The facts about a raw printer an administrator checks: its model and
/// language, the dots drawn across, the cutter, the drawer port and the
/// drawer's switch as last read. Shared by the add report, `printers list`
/// and `printers check`.
package enum RawProfileView {
    /// `(label, value)` lines for `CapabilitiesView`.
    package static func lines(_ profile: RawProfile, drawerOpen: Bool?) -> [(String, String)] {
        [("Model", profile.makeAndModel),
         ("Language", "\(profile.language) (raw)"),
         ("Printable", "\(profile.printableDots) dots at \(profile.dpi) dpi on \(profile.paperWidth) paper"),
         ("Cutter", profile.cutter.rawValue),
         ("Drawer", drawer(profile, drawerOpen: drawerOpen))]
    }

    /// `Epson TM-T20III: ESC/POS, 576 dots at 203 dpi, partial cutter, drawer pins 2 and 5 (closed)`.
    package static func summary(_ profile: RawProfile, drawerOpen: Bool?) -> String {
        "\(profile.makeAndModel): \(profile.language), \(profile.printableDots) dots at \(profile.dpi) dpi, "
            + "\(profile.cutter == .none ? "no" : profile.cutter.rawValue) cutter, \(drawer(profile, drawerOpen: drawerOpen))"
    }

    /// `pins 2 and 5, reads closed`, `no drawer port`.
    package static func drawer(_ profile: RawProfile, drawerOpen: Bool?) -> String {
        guard !profile.drawerPins.isEmpty else { return "no drawer port" }
        let pins = profile.drawerPins.sorted().map { $0 == .pin2 ? "2" : "5" }.joined(separator: " and ")
        let state = drawerOpen.map { $0 ? ", reads open" : ", reads closed" } ?? ""
        return "drawer pin\(profile.drawerPins.count == 1 ? "" : "s") \(pins)\(state)"
    }
}
