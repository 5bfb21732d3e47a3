public import PrintModel
public import Templates

/// Draws a bound layout top to bottom inside a page's printable width, at
/// the page's resolution.
///
/// Two passes: every block is laid out and measured first (a `DrawPlan`),
/// since the bitmap is exactly as tall as the content; then the plan is
/// drawn, onto one A8 surface of that height for the raster, or onto PDF
/// pages. Text is laid out with the horizontal dpi as Pango's resolution, so
/// a point is a real point and one cairo unit is one dot (thermal heads have
/// square dots; a non-square resolution would stretch text vertically).
///
/// Blocks are stacked with no space between them: spacing is the template's
/// to decide, with `space` blocks.
public struct LayoutRenderer: Sendable {
    public var geometry: PageGeometry
    /// Gap between a row's columns: 1.5 mm, enough to keep "2" and "12.50"
    /// from reading as "212.50", small enough to leave the name its width.
    public var columnGap: Length = .millimetres(1.5)
    /// Where `<image src>` names are read from: the template's folder, or
    /// a built-in's embedded files. With none, each image is reported.
    public var assets: TemplateAssets
    /// Keep images grey (8-bit raster, PDF) instead of dithering them to
    /// the one-bit dots a thermal head prints.
    public var keepsImagesGray = false

    public init(geometry: PageGeometry, assets: TemplateAssets = .none) {
        self.geometry = geometry
        self.assets = assets
    }

    /// Lays out and draws `nodes`. Anything not drawn as written (missing
    /// glyphs, barcodes that cannot encode, unreadable images) is in `problems`.
    public func render(_ nodes: [LayoutNode]) -> RenderedLayout { render(nodes, text: nil) }

    /// `render`, with the text laid out in `text` (nil: a context of its own).
    func render(_ nodes: [LayoutNode], text: TextContext?) -> RenderedLayout {
        let plan = plan(nodes, text: text)
        let width = geometry.widthInDots
        let ink = InkCanvas.ink(width: width, height: plan.height, printable: plan.left..<(plan.left + plan.width)) { cr in
            for operation in plan.operations { operation.draw(with: cr) }
        }
        return RenderedLayout(width: width, height: ink.isEmpty ? 0 : plan.height,
                              resolution: geometry.resolution, ink: ink, problems: plan.problems,
                              breaks: plan.breaks)
    }

    /// The measured layout, not drawn yet: what `render` draws, and what the
    /// PDF writer replays on its own surface.
    func plan(_ nodes: [LayoutNode], text: TextContext? = nil) -> DrawPlan {
        let context = LayoutContext(text: text ?? TextContext(dpi: geometry.resolution.horizontal),horizontal: DotPitch(dpi: geometry.resolution.horizontal),
                                    vertical: DotPitch(dpi: geometry.resolution.vertical),
                                    columnGap: DotPitch(dpi: geometry.resolution.horizontal).dots(columnGap),
                                    assets: assets, keepsImagesGray: keepsImagesGray)
        var plan = DrawPlan(left: geometry.printableLeftDots, width: geometry.printableWidthDots, context: context)
        plan.addBlocks(nodes, recordingBreaks: true)
        return plan
    }
}

/// What every block of one layout is measured with.
struct LayoutContext {
    /// The Pango context every paragraph of the pass is laid out in.
    let text: TextContext
    let horizontal: DotPitch
    let vertical: DotPitch
    /// Dots between a row's columns.
    let columnGap: Int
    let assets: TemplateAssets
    let keepsImagesGray: Bool
    var dpi: Int { horizontal.dpi }
}
