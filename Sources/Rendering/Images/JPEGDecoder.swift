import CJpeg
import Glibc

/// JPEG to luminance through libjpeg. The decode, with its setjmp, is
/// `kp_jpeg_decode_gray` in CJpeg's shim; this side only hands it the bytes
/// and copies the pixels out into a Swift array. The shim checks the
/// declared size against `RenderLimits` after the header, before the pixels:
/// two bytes a pixel (libjpeg's grey, and the copy), far below the PNG's.
package enum JPEGDecoder {
    package static func decode(_ data: [UInt8], name: String) throws(ImageError) -> GrayImage {
        var pixels: UnsafeMutablePointer<UInt8>? = nil
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
        let result = data.withUnsafeBufferPointer { bytes in
            message.withUnsafeMutableBufferPointer { text in
                kp_jpeg_decode_gray(bytes.baseAddress, UInt(bytes.count),
                                    UInt(RenderLimits.maximumImageSide), UInt(RenderLimits.maximumImagePixels),
                                    &pixels, &width, &height, text.baseAddress, text.count)
            }
        }
        defer { free(pixels) }
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        switch result {
        case KP_JPEG_OK:
            guard let pixels else { throw .damaged(name: name, format: "JPEG", reason: "no pixels") }
            let w = Int(width), h = Int(height)
            let luminance = Array(UnsafeBufferPointer(start: pixels, count: w * h))
            return GrayImage(width: w, height: h, luminance: luminance)
        case KP_JPEG_TRUNCATED:
            throw .truncated(name: name, format: "JPEG", detail: reason)
        case KP_JPEG_TOO_LARGE:
            throw .imageTooLarge(name: name, width: Int(width), height: Int(height))
        case KP_JPEG_NO_MEMORY:
            throw .outOfMemory(name: name, width: Int(width), height: Int(height))
        default:
            throw .damaged(name: name, format: "JPEG", reason: reason)
        }
    }
}
