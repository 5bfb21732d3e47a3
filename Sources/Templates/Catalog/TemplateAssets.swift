/// Where a template's images come from: the folder its file sits in, or,
/// for a built-in template, the bytes compiled into the program with it.
public struct TemplateAssets: Hashable, Sendable {
    /// The template's folder; `<image src>` names are relative to it.
    public var folder: String?
    /// Files carried in memory, by name (built-ins' logos). Looked up first.
    public var embedded: [String: [UInt8]]

    public init(folder: String? = nil, embedded: [String: [UInt8]] = [:]) {
        self.folder = folder
        self.embedded = embedded
    }

    /// No images at all.
    public static let none = TemplateAssets()
}
