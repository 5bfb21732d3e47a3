package import PrintModel

/// What the picker and `printers add` show about a contacted printer: the
/// facts an administrator checks before saving it (kind, paper, resolution, cut).
package enum CapabilitiesView {
    package static func render(_ capabilities: PrinterCapabilities, uri: String) -> String {
        var lines: [(String, String)] = [
            ("Name", capabilities.name),
            ("URI", uri),
        ]
        if !capabilities.location.isEmpty { lines.append(("Location", capabilities.location)) }
        if !capabilities.makeAndModel.isEmpty { lines.append(("Make and model", capabilities.makeAndModel)) }
        let source = switch capabilities.kindsSource {
        case .printer: ""
        case .dnssd: " (from its DNS-SD record)"
        case .inferred: " (inferred from its media)"
        }
        lines.append(("Kinds", capabilities.kinds.listing + source))
        let reasons = capabilities.stateReasons.map(\.keyword).filter { $0 != "none" }
        lines.append(("State", capabilities.state.rawValue + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")))
        if let native = capabilities.resolutions.native {
            let others = capabilities.resolutions.all.filter { $0 != native }
            lines.append(("Resolution", native.description + (others.isEmpty ? "" : " (also \(others.map(\.description).joined(separator: ", ")))")))
        }
        for roll in capabilities.rolls {
            var text = "\(roll.width) wide, \(roll.printableWidth) printable, cut from \(roll.cutLengths.lowerBound) to \(roll.cutLengths.upperBound)"
            if let source = roll.source { text += ", source \(source)" }
            lines.append(("Roll", text))
        }
        if !capabilities.sheets.isEmpty {
            lines.append(("Sizes", capabilities.sheets.map { sheet in
                sheet.name.map { "\($0) (\(sheet.dimensions))" } ?? sheet.dimensions
            }.joined(separator: ", ")))
        }
        if !capabilities.readyMedia.isEmpty { lines.append(("Loaded", capabilities.readyMedia.joined(separator: ", "))) }
        if !capabilities.trims.isEmpty { lines.append(("Cutter", capabilities.trims.map(\.description).joined(separator: ", "))) }
        if !capabilities.documentFormats.isEmpty { lines.append(("Formats", capabilities.documentFormats.joined(separator: ", "))) }
        lines.append(("Color", capabilities.color ? "yes" : "no"))
        if let profile = capabilities.rawProfile {
            lines += RawProfileView.lines(profile, drawerOpen: capabilities.drawerOpen)
        }
        if let implausible = capabilities.implausible {
            lines.append(("Not believed", implausible.joined(separator: "; ") + " (left out)"))
        }
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { "  " + $0.0 + ":" + String(repeating: " ", count: width - $0.0.count + 1) + $0.1 }
            .joined(separator: "\n")
    }
}
