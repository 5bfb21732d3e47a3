public import PrintModel
public import Templates

/// The media a template prints on, at a printer or in a preview.
public enum MediaSelection {
    /// The page for `page` on a saved printer: a roll template uses the
    /// printer's roll (or first sheet); a fixed-size template gets the best
    /// media the printer has for its size (`PaperChooser`: loaded first, its
    /// own size first), at the printer's native resolution.
    public static func media(for page: PageRequest, on capabilities: PrinterCapabilities) throws(MediaSelectionError) -> PageGeometry {
        switch page.size {
        case .roll:
            if let sheet = loadedInstead(of: page, on: capabilities), let resolution = capabilities.resolutions.native {
                return PageGeometry(sheet: sheet, resolution: resolution)
            }
            do { return try PageGeometry(capabilities: capabilities) } catch { throw .geometry(error) }
        case .fixed(let width, let length):
            guard let resolution = capabilities.resolutions.native else {
                throw .geometry(.noResolution(printer: capabilities.name))
            }
            do {
                return try PaperChooser.choose(PageSize(width: width, length: length), for: capabilities)
                    .geometry(resolution: resolution)
            } catch { throw .paper(error) }
        }
    }

    /// The cut sheets or labels loaded in a printer that could also take a
    /// roll, when a roll template is to print there: LPrint's Zebra lists a
    /// custom range up to 101.6 x 1005.84 mm on its roll holder, but holds
    /// 4x6 in labels, so a receipt "cut at 160 mm" would run across a label
    /// gap. The page is then drawn on what is loaded, and the job says so
    /// (the role's `media-changes` rule decides). Nil when a roll is loaded,
    /// or when the printer does not say what is.
    public static func loadedInstead(of page: PageRequest, on capabilities: PrinterCapabilities) -> SheetMedia? {
        guard case .roll = page.size, !capabilities.rolls.isEmpty,
              !capabilities.rolls.contains(where: { $0.isReady(in: capabilities.readyMedia) }) else { return nil }
        return capabilities.sheets.first { $0.isReady(in: capabilities.readyMedia) }
    }

    /// A preview page with no printer: a roll `width` wide (80 mm when not
    /// given) for roll templates; for a fixed-size template, a roll of the
    /// given width or else a sheet of exactly the template's size.
    public static func preview(for page: PageRequest, width: Length?, dpi: Int) -> PageGeometry {
        switch page.size {
        case .fixed(let pageWidth, let length) where width == nil:
            PageGeometry(sheet: SheetMedia(width: pageWidth, length: length), resolution: Resolution(dpi))
        case .roll, .fixed:
            PageGeometry.preview(width: width ?? .millimetres(80), dpi: dpi)
        }
    }
}

/// Why no media could be chosen for a template on a printer.
public enum MediaSelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    case geometry(GeometryError)
    case paper(PaperError)

    public var description: String {
        switch self {
        case .geometry(let error): error.description
        case .paper(let error): error.description
        }
    }
}
