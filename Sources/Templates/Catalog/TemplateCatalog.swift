import Foundation

/// Finds templates by name: in the custom templates folders first (so a
/// custom `receipt.xml` replaces the built-in receipt), then among the
/// built-ins.
///
/// Every producer of jobs (the API, watched folders, buttons, `print`) names
/// a template from the catalog only: ``find(_:)`` refuses a file path, so
/// whoever may send a job cannot make the agent read, or answer with, a file
/// outside the templates folders. Only the commands that read a template in
/// the caller's own process (`templates check`, `render`) take a file, through
/// ``find(nameOrFile:)``.
///
/// ```swift
/// let catalog = TemplateCatalog(folders: ["/etc/kioskprint/templates"])
/// let receipt = try catalog.find("receipt")
/// ```
public struct TemplateCatalog: Sendable {
    /// Custom templates folders, searched in order before the built-ins.
    public var folders: [String]

    public init(folders: [String] = []) { self.folders = folders }

    /// The templates folder used when none is given: `KIOSKPRINT_TEMPLATES`,
    /// else `/etc/kioskprint/templates` when it exists.
    public static func defaultFolders(environment: [String: String]? = nil) -> [String] {
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let folder = environment["KIOSKPRINT_TEMPLATES"], !folder.isEmpty { return [folder] }
        let system = "/etc/kioskprint/templates"
        return FileManager.default.fileExists(atPath: system) ? [system] : []
    }

    /// The template called `name` in the catalog. A file path, or anything
    /// else that is not a template's name, is refused unread.
    public func find(_ name: String) throws(TemplateLookupError) -> TemplateSource {
        guard Self.isName(name) else { throw .notAName(name) }
        let builtIn = BuiltInTemplates.all.first { $0.name == name }
        for folder in folders {
            let path = folder + "/" + name + ".xml"
            if FileManager.default.fileExists(atPath: path) {
                return try Self.load(path: path, origin: builtIn == nil ? .file(path: path) : .overriding(path: path))
            }
        }
        if let builtIn { return builtIn }
        throw .unknown(name: name, known: all().map(\.name), folders: folders)
    }

    /// The template called `name`, or the file at that path: for commands
    /// that read the template in the caller's own process, with the caller's
    /// own permissions, and queue nothing (`templates check`, `render`).
    public func find(nameOrFile name: String) throws(TemplateLookupError) -> TemplateSource {
        guard Self.isPath(name) else { return try find(name) }
        guard FileManager.default.fileExists(atPath: name) else { throw .missingFile(path: name) }
        return try Self.load(path: name, origin: .file(path: name))
    }

    /// Whether ``find(nameOrFile:)`` takes `name` as a file path rather than a template's name.
    public static func isPath(_ name: String) -> Bool {
        name.contains("/") || name.hasSuffix(".xml")
    }

    /// Whether `name` can be a template's name: a file name in a templates
    /// folder, less its `.xml`. No path, no hidden file, no control
    /// characters, at most 128 bytes.
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128 && !isPath(name) && !name.hasPrefix(".")
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\\" }
    }

    /// Every template by name: the custom ones, and the built-ins they do not replace.
    public func all() -> [TemplateSource] {
        var byName: [String: TemplateSource] = [:]
        for source in BuiltInTemplates.all { byName[source.name] = source }
        for folder in folders.reversed() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for file in files.sorted() where file.hasSuffix(".xml") && !file.hasPrefix(".") {
                let name = String(file.dropLast(4))
                let path = folder + "/" + file
                let origin: TemplateSource.Origin = BuiltInTemplates.all.contains { $0.name == name }
                    ? .overriding(path: path) : .file(path: path)
                if let source = try? Self.load(path: path, origin: origin) { byName[name] = source }
            }
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// A template file, with its folder for images and `NAME.sample.json`
    /// beside it; read again only when either file changed (`TemplateFileCache`).
    static func load(path: String, origin: TemplateSource.Origin) throws(TemplateLookupError) -> TemplateSource {
        let url = URL(fileURLWithPath: path)
        let samplePath = url.deletingLastPathComponent().path + "/" + url.deletingPathExtension().lastPathComponent
            + ".sample.json"
        var source = try TemplateFileCache.shared.source(path: path, samplePath: samplePath) { () throws(TemplateLookupError) in
            try read(path: path, origin: origin)
        }
        source.origin = origin
        return source
    }

    /// A template file and its sample data, read from disk.
    private static func read(path: String, origin: TemplateSource.Origin) throws(TemplateLookupError) -> TemplateSource {
        let url = URL(fileURLWithPath: path)
        // Refused unread: a file far larger than any template is not read into memory to find that out.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
           size > TemplateLimits.maximumTemplateBytes {
            throw .tooLarge(path: path, bytes: size)
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        guard let text = String(data: data, encoding: .utf8) else { throw .notUTF8(path: path) }
        let name = url.deletingPathExtension().lastPathComponent
        let folder = url.deletingLastPathComponent().path
        let samplePath = folder + "/" + name + ".sample.json"
        let sample = FileManager.default.contents(atPath: samplePath).flatMap { String(data: $0, encoding: .utf8) }
        return TemplateSource(name: name, origin: origin, text: text, file: path,
                              assets: TemplateAssets(folder: folder), sampleData: sample,
                              summary: "custom template")
    }
}

/// Why a template could not be found or read, and what to do.
public enum TemplateLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknown(name: String, known: [String], folders: [String])
    /// A file path (or a name no template file can have) where a catalog name is needed.
    case notAName(String)
    case missingFile(path: String)
    case unreadable(path: String)
    case notUTF8(path: String)
    /// Over `TemplateLimits.maximumTemplateBytes`.
    case tooLarge(path: String, bytes: Int)

    public var description: String {
        switch self {
        case .unknown(let name, let known, let folders):
            let searched = folders.isEmpty ? "no templates folder is set" : "searched " + folders.joined(separator: ", ")
            return "There is no template \"\(name)\" (\(searched)). Templates: \(known.joined(separator: ", ")). "
                + "Put \(name).xml in a templates folder (--templates DIR), or run `kioskprint templates list`."
        case .notAName(let name):
            let shown = name.count > 80 ? String(name.prefix(80)) + "…" : name
            return "\(shown.debugDescription) is not a template's name: a job names a template "
                + "from the catalog only, e.g. \"receipt\" (`kioskprint templates list` shows them), never a file path. "
                + "Put the template in a templates folder and give its name without the folder and the .xml."
        case .missingFile(let path):
            return "The template file \(path) does not exist. Check the path."
        case .unreadable(let path):
            return "The template file \(path) cannot be read. Check its permissions."
        case .notUTF8(let path):
            return "The template file \(path) is not UTF-8 text. Save it as UTF-8."
        case .tooLarge(let path, let bytes):
            return "The template file \(path) is \(bytes) bytes, more than the "
                + "\(TemplateLimits.describe(limit: TemplateLimits.maximumTemplateBytes)) a template may be. "
                + "A template describes one layout: repeat blocks with a {{#section}} over the data instead of writing them out."
        }
    }
}
