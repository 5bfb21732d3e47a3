extension GrayImage {
    /// The image resampled to `dots` pixels wide, its height scaled by the
    /// same factor and rounded (at least 1).
    ///
    /// Each axis is resampled on its own (both filters are separable).
    /// Shrinking averages every source pixel under the destination pixel,
    /// weighted by how much of it is covered, so fine detail becomes grey
    /// instead of aliasing into moiré or vanishing lines; enlarging
    /// interpolates bilinearly between pixel centres.
    public func scaled(toWidth dots: Int) -> GrayImage {
        precondition(dots > 0, "an image must be scaled to at least 1 dot")
        guard width > 0, height > 0 else { return self }
        let newHeight = max(1, Int((Double(height) * Double(dots) / Double(width)).rounded()))
        if dots == width && newHeight == height { return self }

        // Across each row first, into floats so the second pass does not
        // round twice; then down, a whole row of taps at a time, which walks
        // memory in order instead of striding down columns.
        let across = Resampling(source: width, destination: dots)
        var rows = [Float](repeating: 0, count: dots * height)
        luminance.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    for x in 0..<dots {
                        var sum: Float = 0
                        for tap in across.taps(x) {
                            sum += Float(source[y * width + across.index[tap]]) * across.weight[tap]
                        }
                        out[y * dots + x] = sum
                    }
                }
            }
        }

        let down = Resampling(source: height, destination: newHeight)
        var result = [UInt8](repeating: 255, count: dots * newHeight)
        var sum = [Float](repeating: 0, count: dots)
        rows.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { out in
                sum.withUnsafeMutableBufferPointer { sum in
                    for y in 0..<newHeight {
                        for x in 0..<dots { sum[x] = 0 }
                        for tap in down.taps(y) {
                            let row = down.index[tap] * dots, weight = down.weight[tap]
                            for x in 0..<dots { sum[x] += source[row + x] * weight }
                        }
                        for x in 0..<dots { out[y * dots + x] = UInt8(min(255, max(0, sum[x].rounded()))) }
                    }
                }
            }
        }
        return GrayImage(width: dots, height: newHeight, luminance: result)
    }
}

/// Which source pixels, with which weights, make each destination pixel
/// along one axis. Computed once per axis and reused for every row or column.
private struct Resampling {
    /// Destination pixel i reads taps `start[i]..<start[i + 1]`.
    private var start: [Int] = [0]
    private(set) var index: [Int] = []
    private(set) var weight: [Float] = []

    init(source: Int, destination: Int) {
        let scale = Double(source) / Double(destination)
        for i in 0..<destination {
            if destination < source {
                // Box: destination pixel i covers source [i*scale, (i+1)*scale).
                let from = Double(i) * scale, to = Double(i + 1) * scale
                var s = Int(from)
                while Double(s) < to && s < source {
                    let overlap = min(to, Double(s + 1)) - max(from, Double(s))
                    if overlap > 0 { add(s, overlap / scale) }
                    s += 1
                }
            } else if destination > source {
                // Pixel centres aligned: destination centre i + 0.5 sits at
                // source (i + 0.5) * scale; clamped at the edges.
                let at = min(max((Double(i) + 0.5) * scale - 0.5, 0), Double(source - 1))
                let left = Int(at), fraction = at - Double(left)
                add(left, 1 - fraction)
                if fraction > 0 && left + 1 < source { add(left + 1, fraction) }
            } else {
                add(i, 1)
            }
            start.append(index.count)
        }
    }

    private mutating func add(_ source: Int, _ share: Double) {
        index.append(source)
        weight.append(Float(share))
    }

    func taps(_ destination: Int) -> Range<Int> { start[destination]..<start[destination + 1] }
}

extension GrayImage {
    /// The columns `x ..< x + width`, every row: a page drawn across a
    /// roll's full width, without the margins the printer cannot reach.
    public func cropped(x: Int, width: Int) -> GrayImage {
        let x = min(max(0, x), self.width - 1)
        let width = min(max(1, width), self.width - x)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height)
        for row in 0..<height { pixels += luminance[(row * self.width + x)..<(row * self.width + x + width)] }
        return GrayImage(width: width, height: height, luminance: pixels)
    }
}
