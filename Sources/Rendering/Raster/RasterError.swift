/// A raster stream that could not be written or read; the text is
/// libcups' own (cupsRasterErrorString) or the system's.
public enum RasterError: Error, Hashable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case writeFailed(String)
    case readFailed(String)
    /// The page cannot be expressed in the requested format.
    case unsupported(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .writeFailed(let reason): "raster write failed: \(reason)"
        case .readFailed(let reason): "raster read failed: \(reason)"
        case .unsupported(let reason): "unsupported raster page: \(reason)"
        }
    }
}
