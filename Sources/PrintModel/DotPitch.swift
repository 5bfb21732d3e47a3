/// How many of a print head's dots a length covers, for placing the printable
/// area inside the raster.
///
/// Thermal heads are built in dots per millimetre: "203 dpi" is 8 dots/mm
/// (203.2 dpi), "406 dpi" 16, "152 dpi" 6. IPP can only say the rounded
/// 203, and at exactly 203 dpi the 72 mm an 80 mm printer prints on is 575.4
/// dots, while the head has 576 (and drivers send 576-dot lines). So:
///
/// - when a resolution is the inch-rounding of a whole number of dots per
///   millimetre, lengths are counted at that metric pitch (72 mm -> 576,
///   48 mm -> 384, 4 mm -> 32);
/// - otherwise (300, 600 dpi) at the stated dots per inch.
///
/// Either way a part dot is dropped (rounded down), as `Length.dots(at:)` does.
///
/// The raster itself stays at the stated resolution: its width is
/// `Length.dots(at:)` of the media width (80 mm at 203 dpi: 639 dots), which
/// is what a PWG/CUPS raster header for that media size holds.
public struct DotPitch: Hashable, Codable, Sendable {
    /// The resolution the printer states, in dots per inch.
    public var dpi: Int

    public init(dpi: Int) { self.dpi = dpi }

    /// Whole dots per millimetre when the head is metric (203 dpi -> 8), nil
    /// when it is built in inches (300, 600 dpi).
    public var dotsPerMillimetre: Int? {
        guard dpi > 0 else { return nil }
        // Nearest whole dots/mm, then back to dpi: metric if it rounds to the stated dpi.
        let perMillimetre = (dpi * 10 + 127) / 254
        guard perMillimetre > 0, (perMillimetre * 254 + 5) / 10 == dpi else { return nil }
        return perMillimetre
    }

    /// The whole dots `length` covers on this head, rounded down.
    public func dots(_ length: Length) -> Int {
        guard length > .zero else { return 0 }
        if let perMillimetre = dotsPerMillimetre {
            return length.hundredthsOfMillimetre * perMillimetre / 100
        }
        return length.dots(at: dpi)
    }
}
