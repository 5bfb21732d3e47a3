import Foundation
import Synchronization

/// Images decoded, scaled and dithered before, kept for the next page: a
/// kiosk prints the same logo on every receipt, and decoding, scaling and
/// error diffusion cost more than drawing the rest of the receipt.
///
/// Files are cached by path and checked by size and modification time on
/// each use, so an integrator's new logo is picked up at once. Bounded.
final class ImageInk: Sendable {
    static let shared = ImageInk()
    static let capacity = 32

    private struct FileStamp: Hashable { var size: Int; var modified: Date }
    private struct InkKey: Hashable { var identity: String; var width: Int; var dither: ImageDither }

    private let files = Mutex<[String: (stamp: FileStamp, image: GrayImage)]>([:])
    private let embedded = Mutex<[Int: (bytes: [UInt8], image: GrayImage)]>([:])
    private let inks = Mutex<[InkKey: InkBitmap]>([:])

    /// The image at `path`, decoded again only when the file changed.
    func loaded(path: String) throws(ImageError) -> GrayImage {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let stamp = (attributes?[.size] as? Int).flatMap { size in
            (attributes?[.modificationDate] as? Date).map { FileStamp(size: size, modified: $0) }
        }
        if let stamp, let known = files.withLock({ $0[path] }), known.stamp == stamp { return known.image }
        let image = try GrayImage.load(path: path)
        if let stamp {
            files.withLock { files in
                if files.count >= Self.capacity { files.removeAll() }
                files[path] = (stamp, image)
            }
        }
        return image
    }

    /// An embedded image (a built-in's logo), decoded once.
    func decoded(_ bytes: [UInt8], name: String) throws(ImageError) -> GrayImage {
        let key = bytes.hashValue
        if let known = embedded.withLock({ $0[key] }), known.bytes == bytes { return known.image }
        let image = try GrayImage.decode(data: bytes, name: name)
        embedded.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll() }
            cache[key] = (bytes, image)
        }
        return image
    }

    /// `image` scaled to `width` dots and dithered, from the cache when the
    /// same image (`identity` plus its pixels) was drawn so before.
    func ink(of image: GrayImage, identity: String, width: Int, dither: ImageDither) -> InkBitmap {
        let key = InkKey(identity: identity + ":\(image.width)x\(image.height):\(image.luminance.hashValue)", width: width,
                         dither: dither)
        if let known = inks.withLock({ $0[key] }) { return known }
        let scaled = image.scaled(toWidth: width)
        let bitmap = InkBitmap(width: scaled.width, height: scaled.height, ink: scaled.ink(dither: dither))
        inks.withLock { inks in
            if inks.count >= Self.capacity { inks.removeAll() }
            inks[key] = bitmap
        }
        return bitmap
    }
}
