package import PrintModel
package import Setup

/// How a saved printer's certificate pin reads in tables.
package enum PinText {
    /// The pin's first 16 hex digits; `not pinned` for an ipps printer without
    /// one; `-` for printers that present no certificate (ipp, raw).
    package static func short(_ pin: CertificateFingerprint?, of printer: SavedPrinter) -> String {
        if let pin { return pin.short }
        return printer.presentsCertificate ? "not pinned" : "-"
    }

    /// The note under `list` for ipps printers saved before pins existed.
    package static func unpinnedNote(_ printers: [SavedPrinter]) -> String {
        var seen: Set<Int64> = []
        let names = printers.filter { $0.certificatePin == nil && $0.presentsCertificate && seen.insert($0.id).inserted }
            .map(\.name)
        guard !names.isEmpty else { return "" }
        return "\n\nNot pinned yet: \(names.joined(separator: ", ")). KioskPrint prints to it (them) without checking "
            + "its certificate until `kioskprint printers check` pins the one it presents then."
    }

    /// The state word of a check that failed.
    package static func failedState(_ error: SetupError) -> String {
        if case .certificateChanged = error { return "certificate-changed" }
        return "unreachable"
    }
}
