extension PixelConversion {
    /// Ink (255 = full ink) to PWG `black_1` by Floyd–Steinberg error
    /// diffusion, for pictures on a printer that has only black and white.
    ///
    /// Each dot becomes black when its ink plus the error carried to it is
    /// at least half; the difference is spread 7/16 right, 3/16 down-left,
    /// 5/16 down and 1/16 down-right. Rows are scanned in serpentine order
    /// (alternating direction) so the error does not drift into diagonal
    /// "worms" on flat areas. The mean ink over an area is kept, to within
    /// the error left over at the page's edges.
    public static func floydSteinberg(ink: [UInt8], width: Int, height: Int, stride: Int? = nil) -> [UInt8] {
        let stride = stride ?? width
        precondition(stride >= width && ink.count >= (height - 1) * stride + width, "ink buffer too small")
        let bytesPerLine = (width + 7) / 8
        var out = [UInt8](repeating: 0, count: bytesPerLine * height)
        // Errors in 1/16ths of an ink level, for this row and the next; two
        // extra cells so the edges need no bounds checks.
        var current = [Int](repeating: 0, count: width + 2)
        var next = [Int](repeating: 0, count: width + 2)
        for y in 0..<height {
            let leftToRight = y % 2 == 0
            let step = leftToRight ? 1 : -1
            var x = leftToRight ? 0 : width - 1
            for _ in 0..<width {
                let cell = x + 1
                let wanted = Int(ink[y * stride + x]) * 16 + current[cell]
                let black = wanted >= 128 * 16
                if black { out[y * bytesPerLine + x / 8] |= 0x80 >> UInt8(x % 8) }
                let error = wanted - (black ? 255 * 16 : 0)
                current[cell + step] += error * 7 / 16
                next[cell - step] += error * 3 / 16
                next[cell] += error * 5 / 16
                next[cell + step] += error * 1 / 16
                x += step
            }
            swap(&current, &next)
            for i in next.indices { next[i] = 0 }
        }
        return out
    }
}
