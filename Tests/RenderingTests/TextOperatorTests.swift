import CPangoCairo
@testable import Rendering
import Testing

/// On the raster's A8 ink surface text is added instead of drawn OVER,
/// which pixman has a fast path for; onto paper the two give the same dots.
@Suite struct TextOperatorTests {
    let plan = LayoutRenderer(geometry: LayoutFixtures.roll80).plan(LayoutFixtures.sampleReceipt(items: 12))

    /// The plan's text runs drawn onto one page: with `textOperator` (added),
    /// or with OVER as cairo draws text anywhere else; `only` keeps one run.
    func ink(over: Bool, only: Int? = nil) -> [UInt8] {
        let texts = plan.operations.filter { if case .text(_, _, _, false) = $0 { true } else { false } }
        return InkCanvas.ink(width: LayoutFixtures.roll80.widthInDots, height: plan.height,
                             printable: plan.left..<(plan.left + plan.width)) { cr in
            for (index, operation) in texts.enumerated() where only == nil || only == index {
                guard case .text(let layout, let x, let y, _) = operation else { continue }
                if over {
                    cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
                    cairo_set_source_rgba(cr, 0, 0, 0, 1)
                    layout.draw(on: cr, x: x, y: y)
                } else {
                    operation.draw(with: cr)
                }
            }
        }
    }

    /// Each paragraph alone on paper: the same dots either way, edges and all.
    @Test func textAddedOntoPaperInksTheDotsOverWould() {
        for index in [0, 5, 17, 30] {
            let added = ink(over: false, only: index), over = ink(over: true, only: index)
            #expect(added.contains { $0 > 0 && $0 < 255 }, "paragraph \(index) has antialiased edges")
            #expect(added == over, "paragraph \(index): \(zip(added, over).filter { $0 != $1 }.count) dots differ")
        }
    }

    /// The whole receipt: where two paragraphs' antialiased edges meet, the
    /// sum is a little darker than OVER's blend, never lighter: 10 of the
    /// 88,896 inked dots of this receipt at 8 bits (under one in a thousand).
    @Test func whereTextMeetsInkTheSumIsNeverLighterAndRare() {
        let added = ink(over: false), over = ink(over: true)
        let differing = zip(added, over).filter { $0 != $1 }
        let inked = over.filter { $0 > 0 }.count
        #expect(differing.allSatisfy { $0 > $1 }, "\(differing.filter { $0 < $1 }.count) dots came out lighter")
        #expect(differing.count * 1_000 <= inked, "\(differing.count) of \(inked) inked dots differ")
    }

    @Test func onlyTheRastersA8SurfaceAddsText() {
        let operators = [CAIRO_FORMAT_A8, CAIRO_FORMAT_ARGB32].map { format in
            let surface = cairo_image_surface_create(format, 8, 8)!
            defer { cairo_surface_destroy(surface) }
            let cr = cairo_create(surface)!
            defer { cairo_destroy(cr) }
            return DrawOperation.textOperator(on: cr)
        }
        #expect(operators == [CAIRO_OPERATOR_ADD, CAIRO_OPERATOR_OVER])
        let recording = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil)!
        defer { cairo_surface_destroy(recording) }
        let cr = cairo_create(recording)!
        defer { cairo_destroy(cr) }
        #expect(DrawOperation.textOperator(on: cr) == CAIRO_OPERATOR_OVER)
    }
}
