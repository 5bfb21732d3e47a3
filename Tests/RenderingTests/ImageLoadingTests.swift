import Foundation
@testable import Rendering
import Simulator
import Testing

/// Real PNG and JPEG files, written by Pillow (an encoder other than the
/// decoders under test), read back through `GrayImage`.
@Suite struct ImageLoadingTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kp-images-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    // MARK: Fixtures

    /// Runs Pillow `code` with `Image`, `ImageDraw`, `sys` and `path`
    /// defined (`arguments` follow in sys.argv), and returns `path` (in this
    /// test's folder).
    func pillow(_ name: String, _ code: String, _ arguments: String...) throws -> String {
        let path = "\(folder)/\(name)"
        let script = "import sys\nfrom PIL import Image, ImageDraw\npath = sys.argv[1]\n" + code
        let run = try Subprocess.run("python3", ["-c", script, path] + arguments, limit: .seconds(60))
        guard run.status == 0 else {
            throw FixtureFailed(description: "Pillow could not write \(name) (status \(run.status)): \(run.errors). "
                                + "Run scripts/install-deps.sh, or python3 -m pip install pillow.")
        }
        return path
    }

    struct FixtureFailed: Error, CustomStringConvertible { var description: String }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = "\(folder)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func loadError(_ path: String) -> ImageError? {
        do { _ = try GrayImage.load(path: path); return nil } catch { return error }
    }

    /// A white 400 x 200 image with a black square over x 100..<200, y 50..<150.
    func squareImage(_ format: String) throws -> String {
        try pillow("square.\(format)", """
            image = Image.new("RGB", (400, 200), (255, 255, 255))
            ImageDraw.Draw(image).rectangle([100, 50, 199, 149], fill=(0, 0, 0))
            image.save(path, quality=95) if path.endswith(".jpg") else image.save(path)
            """)
    }

    static func inkShare(_ ink: [UInt8]) -> Double {
        Double(ink.reduce(0) { $0 + Int($1) }) / Double(255 * ink.count)
    }

    // MARK: Reading

    @Test(arguments: [
        ("rgb.png", #"Image.new("RGB", (300, 200), (200, 200, 200)).save(path)"#, 300, 200),
        ("palette.png", #"Image.new("P", (31, 7), 0).save(path)"#, 31, 7),
        ("gray16.png", #"Image.new("I;16", (64, 48), 200 * 257).save(path)"#, 64, 48),
        ("rgb.jpg", #"Image.new("RGB", (300, 200), (200, 200, 200)).save(path, quality=95)"#, 300, 200),
        ("gray.jpg", #"Image.new("L", (123, 45), 200).save(path)"#, 123, 45),
        ("progressive.jpg", #"Image.new("RGB", (97, 61), (200, 200, 200)).save(path, progressive=True)"#, 97, 61),
    ])
    func dimensionsAndGreyReadBack(name: String, code: String, width: Int, height: Int) throws {
        let image = try GrayImage.load(path: try pillow(name, code))
        #expect(image.width == width && image.height == height)
        #expect(image.luminance.count == width * height)
        if !name.hasPrefix("palette") {
            #expect(abs(Int(image.luminance(x: width / 2, y: height / 2)) - 200) <= 2)
        }
    }

    @Test func formatComesFromTheBytesNotTheName() throws {
        let jpegNamedPNG = try pillow("really-a-jpeg.png", #"Image.new("L", (10, 20), 0).save(path, format="JPEG")"#)
        let image = try GrayImage.load(path: jpegNamedPNG)
        #expect(image.width == 10 && image.height == 20)
    }

    @Test func decodesFromMemoryLikeFromAFile() throws {
        let path = try squareImage("png")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try GrayImage.decode(data: bytes, name: "square.png") == GrayImage.load(path: path))
    }

    @Test func transparentPixelsAreWhitePaper() throws {
        // Left third fully transparent black, middle third half-transparent
        // black, right third opaque black.
        let path = try pillow("transparent.png", """
            image = Image.new("RGBA", (90, 10), (0, 0, 0, 0))
            ImageDraw.Draw(image).rectangle([30, 0, 59, 9], fill=(0, 0, 0, 128))
            ImageDraw.Draw(image).rectangle([60, 0, 89, 9], fill=(0, 0, 0, 255))
            image.save(path)
            """)
        let image = try GrayImage.load(path: path)
        #expect(image.luminance(x: 5, y: 5) == 255)
        #expect(abs(Int(image.luminance(x: 45, y: 5)) - 127) <= 2)
        #expect(image.luminance(x: 75, y: 5) == 0)
        #expect(image.ink(dither: .none)[5 * 90 + 5] == 0, "transparent must print as paper, not ink")
    }

    @Test func cmykJPEGReadsAsGrey() throws {
        let path = try pillow("cmyk.jpg", """
            image = Image.new("CMYK", (40, 40), (0, 0, 0, 0))
            ImageDraw.Draw(image).rectangle([10, 10, 29, 29], fill=(0, 0, 0, 255))
            image.save(path, quality=95)
            """)
        let image = try GrayImage.load(path: path)
        #expect(image.luminance(x: 2, y: 2) >= 250, "no ink is white")
        #expect(image.luminance(x: 20, y: 20) <= 5, "full K is black")
    }

    // MARK: Scaling

    @Test(arguments: ["png", "jpg"])
    func blackSquareLandsWhereExpectedWhenShrunk(format: String) throws {
        let image = try GrayImage.load(path: try squareImage(format)).scaled(toWidth: 100)
        #expect(image.width == 100 && image.height == 50)
        // The square now covers x 25..<50, y 12.5..<37.5.
        let tolerance = format == "jpg" ? 12 : 0
        for y in 0..<50 {
            for x in 0..<100 {
                let value = Int(image.luminance(x: x, y: y))
                if (25..<50).contains(x), (13..<37).contains(y) {
                    #expect(value <= tolerance, "inside the square at \(x),\(y)")
                } else if !(24...50).contains(x) || !(12...37).contains(y) {
                    #expect(value >= 255 - tolerance, "outside the square at \(x),\(y)")
                }
            }
        }
        // Row 12 is half covered by the square's top edge (12.5): half grey.
        #expect(abs(Int(image.luminance(x: 37, y: 12)) - 128) <= 2 + tolerance)
    }

    @Test func blackSquareLandsWhereExpectedWhenEnlarged() throws {
        let image = try GrayImage.load(path: try squareImage("png")).scaled(toWidth: 800)
        #expect(image.width == 800 && image.height == 400)
        // The square now covers x 200..<400, y 100..<300; bilinear blurs one
        // source pixel (2 dots) at each edge.
        #expect(image.luminance(x: 202, y: 102) == 0 && image.luminance(x: 397, y: 297) == 0)
        #expect(image.luminance(x: 197, y: 150) == 255 && image.luminance(x: 402, y: 150) == 255)
        #expect(image.luminance(x: 300, y: 97) == 255 && image.luminance(x: 300, y: 302) == 255)
    }

    @Test func shrinkingFineLinesGivesGreyNotAliasing() {
        // One-pixel black and white stripes, 1000 wide, drawn at 300 dots:
        // point sampling would give irregular stripes of solid black and white.
        let stripes = (0..<20).flatMap { _ in (0..<1000).map { UInt8($0 % 2 == 0 ? 0 : 255) } }
        let image = GrayImage(width: 1000, height: 20, luminance: stripes).scaled(toWidth: 300)
        #expect(image.width == 300 && image.height == 6)
        // Each dot averages 3.33 stripes, so it is 40-60% grey depending on
        // where it falls; never the solid black or white of a sampled stripe.
        #expect(image.luminance.allSatisfy { abs(Int($0) - 128) <= 32 },
                "\(image.luminance.min()!)...\(image.luminance.max()!)")
        let mean = Double(image.luminance.reduce(0) { $0 + Int($1) }) / Double(image.luminance.count)
        #expect(abs(mean - 127.5) <= 3)
    }

    @Test func heightIsRoundedAndNeverZero() {
        let wide = GrayImage(width: 1000, height: 3, luminance: [UInt8](repeating: 0, count: 3000))
        #expect(wide.scaled(toWidth: 100).height == 1)
        let odd = GrayImage(width: 3, height: 2, luminance: [UInt8](repeating: 0, count: 6))
        #expect(odd.scaled(toWidth: 4).height == 3)   // 2.67 rounds to 3
    }

    // MARK: Ink

    @Test(arguments: [ImageDither.floydSteinberg, .ordered])
    func halfGreyDithersToAboutHalfInk(dither: ImageDither) throws {
        let path = try pillow("grey.png", #"Image.new("L", (200, 200), 128).save(path)"#)
        let ink = try GrayImage.load(path: path).ink(dither: dither)
        #expect(ink.allSatisfy { $0 == 0 || $0 == 255 })
        let share = Self.inkShare(ink)
        #expect(share >= 0.4 && share <= 0.6, "\(dither): \(share * 100)% ink")
    }

    @Test(arguments: [0, 32, 64, 96, 160, 192, 224, 255])
    func ditheringKeepsTheMeanInk(level: Int) {
        let image = GrayImage(width: 64, height: 64, luminance: [UInt8](repeating: UInt8(level), count: 64 * 64))
        for dither in [ImageDither.floydSteinberg, .ordered] {
            let share = Self.inkShare(image.ink(dither: dither))
            #expect(abs(share - Double(255 - level) / 255) <= 0.03, "\(dither) at \(level): \(share)")
        }
    }

    @Test func thresholdGivesOnlyNoInkOrFullInk() throws {
        let path = try pillow("gradient.png", """
            image = Image.new("L", (256, 8))
            image.putdata([x for y in range(8) for x in range(256)])
            image.save(path)
            """)
        let image = try GrayImage.load(path: path)
        let ink = image.ink(dither: .threshold)
        #expect(ink.count == 256 * 8)
        #expect(ink.allSatisfy { $0 == 0 || $0 == 255 })
        #expect(ink[0] == 255 && ink[255] == 0, "black inks, white stays paper")
    }

    @Test func noDitherKeepsTheGreysAsInk() {
        let image = GrayImage(width: 3, height: 1, luminance: [0, 128, 255])
        #expect(image.ink(dither: .none) == [255, 127, 0])
    }

    @Test func templateDitherNamesMapOneToOne() {
        #expect(ImageDither(.floydSteinberg) == .floydSteinberg)
        #expect(ImageDither(.threshold) == .threshold)
        #expect(ImageDither(.ordered) == .ordered)
    }

    // MARK: Refusals

    @Test func truncatedJPEGIsRefused() throws {
        let path = try pillow("cut.jpg", #"Image.effect_noise((200, 200), 64).save(path, quality=90)"#)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        let error = try #require(loadError(path))
        guard case .truncated(_, "JPEG", _) = error else { Issue.record("\(error)"); return }
        #expect(error.description.contains("cut.jpg"))
    }

    @Test func truncatedPNGIsRefused() throws {
        let path = try pillow("cut.png", #"Image.effect_noise((200, 200), 64).save(path)"#)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        let error = try #require(loadError(path))
        guard case .truncated(_, "PNG", _) = error else { Issue.record("\(error)"); return }
        #expect(error.description.contains("cut.png"))
    }

    @Test func damagedJPEGIsRefused() throws {
        // A JPEG's start marker twice: libjpeg's own reason is passed on.
        let path = try write("garbage.jpg", [0xFF, 0xD8, 0xFF, 0xD8] + [UInt8](repeating: 0x41, count: 64))
        let error = try #require(loadError(path))
        guard case .damaged(_, "JPEG", let reason) = error else { Issue.record("\(error)"); return }
        #expect(!reason.isEmpty)
        #expect(error.description.contains("garbage.jpg"))
    }

    @Test func corruptPNGIsDamagedNotOutOfMemory() throws {
        // cairo calls every libpng error "out of memory"; a flipped byte in
        // the compressed pixels must still read as a damaged file.
        let path = try pillow("corrupt.png", #"Image.effect_noise((64, 64), 64).save(path)"#)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for i in 60..<80 { bytes[i] ^= 0x55 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = try #require(loadError(path))
        guard case .damaged(_, "PNG", _) = error else { Issue.record("\(error)"); return }
        #expect(error.description.contains("corrupt.png"))
    }

    @Test func textFileNamedPNGIsRefused() throws {
        let path = try write("logo.png", Array("hello, this is not a picture\n".utf8))
        let error = try #require(loadError(path))
        guard case .unsupportedFormat(_, nil, _) = error else { Issue.record("\(error)"); return }
        #expect(error.description.contains("logo.png"))
        #expect(error.description.contains("it starts with \"hello, this"))
        #expect(error.description.contains("Save it as PNG or JPEG"))
    }

    @Test(arguments: [("logo.gif", "GIF", "GIF"), ("logo.bmp", "BMP", "BMP"), ("logo.webp", "WEBP", "WebP"),
                      ("logo.tif", "TIFF", "TIFF")])
    func otherImageFormatsAreNamed(name: String, pillowFormat: String, shown: String) throws {
        let path = try pillow(name, #"Image.new("L", (8, 8), 0).save(path, format=sys.argv[2])"#, pillowFormat)
        let error = try #require(loadError(path))
        guard case .unsupportedFormat(_, shown?, _) = error else { Issue.record("\(error)"); return }
        #expect(error.description.contains("\(name) is a \(shown) file"))
    }

    @Test func emptyFileIsRefused() throws {
        let path = try write("empty.png", [])
        let error = try #require(loadError(path))
        #expect(error.description.contains("empty.png") && error.description.contains("it is empty"))
    }

    @Test func missingFileIsRefused() throws {
        let path = "\(folder)/nowhere/logo.png"
        let error = try #require(loadError(path))
        #expect(error == .notFound(name: path))
        #expect(error.description.contains("logo.png"))
    }

    @Test func folderIsRefused() throws {
        let path = "\(folder)/logo.png"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let error = try #require(loadError(path))
        #expect(error == .isDirectory(name: path))
        #expect(error.description.contains("logo.png"))
    }

    @Test func fileOverTheSizeLimitIsRefusedUnread() throws {
        // A sparse file: its size is what counts, and it is never read.
        let path = try write("huge.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(RenderLimits.maximumImageFileBytes + 1))
        try handle.close()
        let error = try #require(loadError(path))
        #expect(error == .fileTooLarge(name: path, bytes: RenderLimits.maximumImageFileBytes + 1,
                                       limit: RenderLimits.maximumImageFileBytes))
        #expect(error.description.contains("huge.png") && error.description.contains("20 MB"))
    }

    /// A PNG signature and an IHDR chunk and nothing else: refused from the
    /// header alone, so no pixels are ever allocated.
    static func pngHeader(width: UInt32, height: UInt32, bitDepth: UInt8 = 8) -> [UInt8] {
        let be = { (v: UInt32) in [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8)
            + be(width) + be(height) + [bitDepth, 0, 0, 0, 0] + [0, 0, 0, 0]
    }

    @Test(arguments: [(10_001, 10), (10, 10_001), (8_000, 6_000)])
    func oversizedPNGIsRefusedFromItsHeader(width: Int, height: Int) throws {
        let path = try write("big.png", Self.pngHeader(width: UInt32(width), height: UInt32(height)))
        let error = try #require(loadError(path))
        #expect(error == .imageTooLarge(name: path, width: width, height: height))
        #expect(error.description.contains("big.png"))
    }

    @Test func oversizedJPEGIsRefused() throws {
        let path = try pillow("wide.jpg", #"Image.new("L", (10001, 8), 255).save(path)"#)
        let error = try #require(loadError(path))
        #expect(error == .imageTooLarge(name: path, width: 10_001, height: 8))
        #expect(error.description.contains("wide.jpg"))
    }

    /// Issue 14: a 5 KB PNG declaring 10000 x 4000 pixels (40 megapixels) was decoded, twice.
    @Test func aPNGBombIsRefusedFromItsHeaderWithItsSizeAndTheLimit() throws {
        let path = try write("bomb.png", Self.pngHeader(width: 10_000, height: 4_000) + [UInt8](repeating: 0, count: 5_000))
        let error = try #require(loadError(path))
        #expect(error == .imageTooLarge(name: path, width: 10_000, height: 4_000))
        #expect(error.description.hasPrefix("\(path) declares 10000 x 4000 pixels, more than KioskPrint decodes "
            + "(at most 10000 pixels a side and 8 megapixels"), "\(error)")
        // Just over 8 megapixels, which the old 40-megapixel limit let through.
        let over = try write("over.png", Self.pngHeader(width: 4_000, height: 2_001))
        #expect(loadError(over) == .imageTooLarge(name: over, width: 4_000, height: 2_001))
    }

    @Test func a16BitPNGThatWouldTakeTooMuchMemoryToDecodeIsRefused() throws {
        // 6 megapixels is within the pixel limit, but 16 bits a channel take 21 bytes a pixel: 126 MB.
        let path = try write("deep.png", Self.pngHeader(width: 3_000, height: 2_000, bitDepth: 16))
        let error = try #require(loadError(path))
        #expect(error == .decodedTooLarge(name: path, width: 3_000, height: 2_000, bytes: 3_000 * 2_000 * 21))
        #expect(error.description.contains("more than the 96 MB KioskPrint allows one image"), "\(error)")
    }

    @Test func theImageCachesAreBoundedByBytesNotOnlyByCount() {
        let cache = ByteBoundedCache<Int, [UInt8]>(capacity: 32, budget: 1_000)
        for key in 0..<5 { cache.insert([UInt8](repeating: 0, count: 400), bytes: 400, for: key) }
        #expect(cache.bytesHeld == 800)
        #expect(cache[3] != nil && cache[4] != nil && cache[2] == nil)  // the oldest went first
        cache.insert([UInt8](repeating: 0, count: 2_000), bytes: 2_000, for: 9)  // larger than the whole budget
        #expect(cache[9] == nil && cache.bytesHeld == 800)
        #expect(ImageInk.budget * 3 <= RenderLimits.imageCacheBytes)
    }
}
