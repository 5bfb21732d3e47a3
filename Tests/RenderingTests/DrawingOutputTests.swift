import Foundation
import PrintModel
import Testing
@testable import Rendering
@testable import Templates

/// What the built-in templates are drawn as, byte for byte: a change meant
/// to make drawing cheaper must leave every dot and every header field as
/// it was, and the fast paths must draw what the plain ones draw.
@Suite struct DrawingOutputTests {
    /// Each built-in's PWG raster with its sample data on its preview page at
    /// 203 dpi (`kioskprint render NAME --out NAME.pwg`), as drawn before the
    /// drawing was made cheaper: FNV-1a (64-bit) of the bytes, and their count.
    /// With Debian 12's libcups, cairo, Pango and DejaVu fonts as
    /// `drawingStack` lists them; another version of those may draw other
    /// dots, and then these are to be taken again from a build known to draw
    /// right (the test says it did not run, rather than fail on dots it
    /// cannot judge).
    static let pwg: [String: (fnv: UInt64, bytes: Int)] = [
        "receipt": (0x0d74c14c2a2b09fd, 32006),
        "receipt-ru": (0xe17490414183fcfb, 21835),
        "shipping-label": (0xe6935d3a79d760d8, 21560),
        "product-label": (0xfc192faadf7c9aa1, 5350),
        "bag-tag": (0xb4c6195681ea6f49, 10984),
        "boarding-pass": (0xbccffae21745d42a, 15864),
        "boarding-pass-ticket": (0xf9eaafcc420f5131, 25328),
        "test-page": (0xefe2f5543e833d5e, 14746),
    ]

    static func fnv1a(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }

    /// The Debian packages that decide the dots, at the versions the hashes were taken with.
    static let drawingStack = [
        "libcairo2": "1.16.0-7", "libpango-1.0-0": "1.50.12+ds-1", "libfreetype6": "2.12.1+dfsg-5+deb12u4",
        "libharfbuzz0b": "6.0.0+dfsg-3", "libpixman-1-0": "0.42.2-1", "libfontconfig1": "2.14.1-4",
        "fonts-dejavu-core": "2.37-6", "libcups2": "2.4.2-3+deb12u9",
    ]

    /// Whether this machine has `drawingStack`, read from dpkg's status file.
    static var hasTheRecordedDrawingStack: Bool {
        guard let status = try? String(contentsOfFile: "/var/lib/dpkg/status", encoding: .utf8) else { return false }
        var installed: [String: String] = [:]
        for stanza in status.split(separator: "\n\n") {
            let lines = stanza.split(separator: "\n")
            func field(_ name: String) -> String? {
                lines.first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) }
            }
            if let package = field("Package"), drawingStack[package] != nil, field("Status") == "install ok installed" {
                installed[package] = field("Version")
            }
        }
        return installed == drawingStack
    }

    @Test(.enabled(if: hasTheRecordedDrawingStack, "the hashes were taken with other versions of cairo, Pango, FreeType, the fonts or libcups"),
          arguments: BuiltInTemplates.all.map(\.name))
    func theRasterIsByteForByteAsBefore(name: String) throws {
        let job = try BuiltInTemplateTests.job(name)
        let raster = try job.renderRaster(on: BuiltInTemplateTests.media(job, dpi: 203), format: .pwg)
        let expected = try #require(Self.pwg[name])
        #expect(raster.data.count == expected.bytes)
        #expect(Self.fnv1a(raster.data) == expected.fnv, "\(name): 0x\(String(Self.fnv1a(raster.data), radix: 16))")
    }

    /// Text drawn without bringing Pango's context to the page (it is the
    /// surface the text was laid out for) is the text Pango draws when it is.
    @Test(arguments: BuiltInTemplates.all.map(\.name), [203, 300])
    func textDrawnWithoutUpdatingTheContextIsTheSame(name: String, dpi: Int) throws {
        let job = try BuiltInTemplateTests.job(name)
        let media = BuiltInTemplateTests.media(job, dpi: dpi)
        let nodes = try job.bound().body
        let renderer = LayoutRenderer(geometry: media, assets: job.source.assets)
        func ink(updatingOnEveryDraw: Bool) -> [UInt8] {
            let plan = renderer.plan(nodes, text: TextContext(dpi: dpi, updatingOnEveryDraw: updatingOnEveryDraw))
            return InkCanvas.ink(width: media.widthInDots, height: plan.height,
                                 printable: plan.left..<(plan.left + plan.width)) { cr in
                for operation in plan.operations { operation.draw(with: cr) }
            }
        }
        let fast = ink(updatingOnEveryDraw: false)
        #expect(fast.contains { $0 != 0 })
        #expect(fast == ink(updatingOnEveryDraw: true))
    }

    /// The logo's cache keys from remembered hashes are the hashes of its bytes.
    @Test func aRememberedFingerprintIsTheBytesHash() {
        let fingerprints = StorageFingerprints(capacity: 2, budget: 1_000)
        let bytes: [UInt8] = Array(0..<200)
        let copy = bytes   // the same storage
        #expect(fingerprints.hash(of: bytes) == bytes.hashValue)
        #expect(fingerprints.hash(of: copy) == bytes.hashValue)
        #expect(StorageFingerprints.sharesStorage(bytes, copy))
        var changed = copy
        changed[0] = 9   // copied on write: other storage, other bytes
        #expect(!StorageFingerprints.sharesStorage(bytes, changed))
        #expect(fingerprints.hash(of: changed) == changed.hashValue && changed.hashValue != bytes.hashValue)
        let equal = Array(bytes)   // the same bytes in storage of its own... or shared: either way the same hash
        #expect(fingerprints.hash(of: equal) == bytes.hashValue)
    }
}
