import PrintModel
import Templates

/// Barcodes, images and boxes: the blocks that are not text.
extension DrawPlan {
    /// A barcode with whole-dot modules, aligned in the column, with its
    /// human-readable text below when asked. A symbol wider than the column
    /// is drawn again with smaller modules (and reported) rather than cut
    /// off: a clipped barcode does not scan.
    mutating func addBarcode(_ block: BarcodeBlock) {
        guard let symbology = Barcode.Symbology(rawValue: block.symbology.rawValue) else { return }
        let barHeight = block.height.map { max(1, context.vertical.dots($0)) }
        var module = block.module
        var bitmap: BarcodeBitmap
        while true {
            do {
                if block.check == .bcbp { try BCBP.validate(block.data) }
                bitmap = try BarcodeRenderer.render(Barcode(symbology, data: block.data, moduleDots: module,
                                                            barHeightDots: barHeight))
            } catch {
                report(.barcodeInvalid, error.description, at: block.location)
                return
            }
            guard bitmap.width > width, module > 1 else { break }
            module -= 1
        }
        guard bitmap.width <= width else {
            report(.barcodeTooWide, "The \(symbology) barcode needs \(bitmap.width) dots even with 1-dot modules, "
                + "more than the \(width) printable; it was left out. Shorten the data, or use a 2D symbology (QR).",
                at: block.location)
            return
        }
        if module < block.module {
            report(.barcodeShrunk, "The \(symbology) barcode is too wide for the printable \(width) dots with "
                + "\(block.module)-dot modules; it was drawn with \(module)-dot modules. Lower module= or shorten the data "
                + "if scanners struggle.", at: block.location)
        }
        let x = alignedX(bitmap.width, block.align)
        operations.append(.bitmap(InkBitmap(width: bitmap.width, height: bitmap.height, ink: bitmap.ink), x: x, y: height))
        height += bitmap.height

        if block.humanReadable == .below, !bitmap.humanReadableText.isEmpty {
            // The page's own font, not zint's coarse bitmap digits; a small gap
            // keeps the digits off the bars so scanners still see the quiet zone.
            var style = TextStyle()
            style.size = 8
            let text = PangoTextLayout(text: bitmap.humanReadableText, style: ResolvedTextStyle(style),
                                       width: nil, context: context.text)
            let gap = context.vertical.dots(.millimetres(0.5))
            let textX = min(max(left, x + (bitmap.width - text.size.width) / 2), left + max(0, width - text.size.width))
            operations.append(.text(text, x: textX, y: height + gap, clear: false))
            height += gap + text.size.height
        }
    }

    /// A PNG or JPEG from the template's folder, scaled to its width (or its
    /// own pixels as dots, at most the column), dithered for one-bit heads.
    mutating func addImage(_ block: ImageBlock) {
        let image: GrayImage
        var identity: String?
        do {
            if let pixels = context.assets.pixels[block.source] {
                // A page a client drew: printed once, so not cached (identity nil).
                image = GrayImage(width: pixels.width, height: pixels.height, luminance: pixels.luminance)
            } else if let embedded = context.assets.embedded[block.source] {
                image = try ImageInk.shared.decoded(embedded, name: block.source)
                identity = "embedded:\(block.source):\(embedded.count):\(ImageInk.shared.fingerprint(embedded))"
            } else {
                guard let path = resolvedAssetPath(block.source, at: block.location) else { return }
                image = try ImageInk.shared.loaded(path: path)
                identity = "file:\(path)"
            }
        } catch {
            report(.imageUnavailable, error.description, at: block.location)
            return
        }
        var target = block.width.map { context.horizontal.dots($0) } ?? image.width
        if target > width {
            if block.width != nil {
                report(.tooWide, "The image \(block.source) is asked \(target) dots wide, more than the printable "
                    + "\(width); it was drawn \(width) dots wide.", at: block.location)
            }
            target = width
        }
        let dither = context.keepsImagesGray ? ImageDither.none : ImageDither(block.dither)
        let bitmap = identity.map { ImageInk.shared.ink(of: image, identity: $0, width: max(1, target), dither: dither) }
            ?? ImageInk.ink(of: image, width: max(1, target), dither: dither)
        operations.append(.bitmap(bitmap, x: alignedX(bitmap.width, block.align), y: height))
        height += bitmap.height
    }

    /// A border around its children, with padding inside. The border is at
    /// least one dot, so a thin border never disappears.
    mutating func addBox(_ box: Box) {
        let borderAcross = box.border > .zero ? max(1, context.horizontal.dots(box.border)) : 0
        let borderDown = box.border > .zero ? max(1, context.vertical.dots(box.border)) : 0
        let insetAcross = borderAcross + context.horizontal.dots(box.padding)
        let insetDown = borderDown + context.vertical.dots(box.padding)
        guard width > 2 * insetAcross else {
            report(.tooWide, "The box's border and padding leave no room inside the printable \(width) dots; "
                + "it was left out. Use a thinner border or less padding.", at: box.location)
            return
        }
        var inner = DrawPlan(left: left + insetAcross, width: width - 2 * insetAcross, context: context)
        inner.addBlocks(box.children, recordingBreaks: false)
        let top = height, boxHeight = inner.height + 2 * insetDown
        operations += [
            .fill(x: left, y: top, width: width, height: borderDown),
            .fill(x: left, y: top + boxHeight - borderDown, width: width, height: borderDown),
            .fill(x: left, y: top, width: borderAcross, height: boxHeight),
            .fill(x: left + width - borderAcross, y: top, width: borderAcross, height: boxHeight),
        ]
        operations += inner.operations.map { $0.moved(dy: top + insetDown) }
        problems += inner.problems
        height += boxHeight
    }

    /// `source` inside the assets folder. Absolute paths and `..` are refused:
    /// an image name can come from a job's data, and a job must not make the
    /// agent read files outside the template's folder.
    private mutating func resolvedAssetPath(_ source: String, at location: SourceLocation) -> String? {
        guard let folder = context.assets.folder else {
            report(.imageUnavailable, "The image \(source) cannot be read: this template has no folder to read it from. "
                + "Keep the template in a file beside its images.", at: location)
            return nil
        }
        let parts = source.split(separator: "/")
        guard !source.hasPrefix("/"), !parts.isEmpty, !parts.contains("..") else {
            report(.imageUnavailable, "The image name \"\(source)\" points outside the template's folder; "
                + "name a file inside \(folder), like logo.png.", at: location)
            return nil
        }
        return folder + "/" + source
    }
}
