/// A rectangle on the page in lengths, origin at the top-left corner of the
/// media, y growing along the paper (the direction it feeds).
public struct LengthRect: Hashable, Codable, Sendable, CustomStringConvertible {
    public var x: Length
    public var y: Length
    public var width: Length
    public var height: Length

    public init(x: Length, y: Length, width: Length, height: Length) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var description: String {
        "\(width.millimetreFigure) x \(height.millimetreFigure) mm at (\(x.millimetreFigure), \(y.millimetreFigure)) mm"
    }
}

/// A rectangle in raster dots, origin at the top-left dot of the page.
public struct DotRect: Hashable, Codable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var description: String { "\(width) x \(height) dots at (\(x), \(y))" }
}
