import Foundation

/// Images decoded, scaled and dithered before, kept for the next page: a
/// kiosk prints the same logo on every receipt, and decoding, scaling and
/// error diffusion cost more than drawing the rest of the receipt.
///
/// Files are cached by path and checked by size and modification time on
/// each use, so an integrator's new logo is picked up at once. Bounded by
/// count and by bytes: each of the three caches keeps at most a third of
/// `RenderLimits.imageCacheBytes`.
final class ImageInk: Sendable {
    static let shared = ImageInk()
    static let capacity = 32
    static let budget = RenderLimits.imageCacheBytes / 3

    private struct FileStamp: Hashable { var size: Int; var modified: Date }
    private struct InkKey: Hashable { var identity: String; var width: Int; var dither: ImageDither }

    private let files = ByteBoundedCache<String, FileEntry>(capacity: ImageInk.capacity, budget: ImageInk.budget)
    private let embedded = ByteBoundedCache<Int, EmbeddedEntry>(capacity: ImageInk.capacity, budget: ImageInk.budget)
    private let inks = ByteBoundedCache<InkKey, InkBitmap>(capacity: ImageInk.capacity, budget: ImageInk.budget)
    /// The hashes of embedded files and decoded pixels, which key the caches above.
    private let fingerprints = StorageFingerprints(capacity: 8, budget: ImageInk.budget / 4)

    private struct FileEntry: Sendable { var stamp: FileStamp; var image: GrayImage }
    private struct EmbeddedEntry: Sendable { var bytes: [UInt8]; var image: GrayImage }

    /// The image at `path`, decoded again only when the file changed.
    func loaded(path: String) throws(ImageError) -> GrayImage {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let stamp = (attributes?[.size] as? Int).flatMap { size in
            (attributes?[.modificationDate] as? Date).map { FileStamp(size: size, modified: $0) }
        }
        if let stamp, let known = files[path], known.stamp == stamp { return known.image }
        let image = try GrayImage.load(path: path)
        if let stamp { files.insert(FileEntry(stamp: stamp, image: image), bytes: image.byteCount, for: path) }
        return image
    }

    /// `bytes.hashValue`, hashed once for the same array (see `StorageFingerprints`).
    func fingerprint(_ bytes: [UInt8]) -> Int { fingerprints.hash(of: bytes) }

    /// An embedded image (a built-in's logo), decoded once.
    func decoded(_ bytes: [UInt8], name: String) throws(ImageError) -> GrayImage {
        let key = fingerprint(bytes)
        if let known = embedded[key], known.bytes == bytes { return known.image }
        let image = try GrayImage.decode(data: bytes, name: name)
        embedded.insert(EmbeddedEntry(bytes: bytes, image: image), bytes: bytes.count + image.byteCount, for: key)
        return image
    }

    /// `image` scaled to `width` dots and dithered, from the cache when the
    /// same image (`identity` plus its pixels) was drawn so before.
    func ink(of image: GrayImage, identity: String, width: Int, dither: ImageDither) -> InkBitmap {
        let key = InkKey(identity: identity + ":\(image.width)x\(image.height):\(fingerprint(image.luminance))", width: width,
                         dither: dither)
        if let known = inks[key] { return known }
        let bitmap = Self.ink(of: image, width: width, dither: dither)
        inks.insert(bitmap, bytes: bitmap.ink.count, for: key)
        return bitmap
    }

    /// `image` scaled to `width` dots and dithered, not cached: for an image drawn once.
    static func ink(of image: GrayImage, width: Int, dither: ImageDither) -> InkBitmap {
        let scaled = image.scaled(toWidth: width)
        return InkBitmap(width: scaled.width, height: scaled.height, ink: scaled.ink(dither: dither))
    }
}
