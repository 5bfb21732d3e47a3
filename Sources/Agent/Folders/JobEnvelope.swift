package import Foundation
import PrintModel
import Templates

/// A JSON job file that says what to print, for folders that take several
/// kinds of job: a template with its data, `{"template", "data"}`, or
/// printer-language bytes passed through as they are, `{"zpl": "^XA...^XZ"}`
/// (ZPL is text) or `{"escpos-base64": "G0A..."}` (ESC/POS is binary). Either
/// may add `"role"`, `"name"`, `"copies"` and `"drawer"`.
package struct JobEnvelope: Equatable {
    static let keys = ["template", "data", "zpl", "escpos-base64", "role", "name", "copies", "drawer"]

    /// What the envelope prints.
    enum Content: Equatable {
        /// A template by name, with its data as JSON text.
        case template(name: String, dataJSON: String)
        /// Bytes in a printer's own language, sent as they are.
        case printerLanguage(PrinterLanguage, Data)
    }

    var content: Content
    var role: Role?
    var name: String?
    var copies: Int
    /// Kick the cash drawer after the job's cut (`"drawer": true`).
    var opensDrawer: Bool

    init(content: Content, role: Role?, name: String?, copies: Int, opensDrawer: Bool = false) {
        self.content = content
        self.role = role
        self.name = name
        self.copies = copies
        self.opensDrawer = opensDrawer
    }

    init(template: String, role: Role?, name: String?, copies: Int, dataJSON: String, opensDrawer: Bool = false) {
        self.init(content: .template(name: template, dataJSON: dataJSON), role: role, name: name, copies: copies,
                  opensDrawer: opensDrawer)
    }

    /// Reads an envelope; the error says which part is wrong, in words for
    /// whoever wrote the file.
    package init(json: Data, file: String) throws(FileRefusal) {
        let document: TemplateData
        // The folder's file size limit bounds the envelope, which may carry large ESC/POS bytes; its
        // "data", one level down, is held to TemplateLimits' data limits when the template is checked.
        do {
            document = try TemplateData(json: json, file: file, maximumBytes: .max,
                                        maximumNesting: TemplateLimits.maximumDataNesting + 1)
        } catch {
            throw FileRefusal("it is not valid JSON: \(error)")
        }
        guard case .object(let members) = document else { throw FileRefusal("it is not a JSON object.") }
        let unknown = members.keys.filter { !Self.keys.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw FileRefusal("it has \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")), which a job file does not take. "
                + "A job file has \"template\" and \"data\", or printer-language bytes in \"zpl\" or \"escpos-base64\"; "
                + "it may have \"role\", \"name\", \"copies\" and \"drawer\". A folder with a template of its own takes the data alone.")
        }
        content = try Self.content(members)
        switch members["role"] {
        case nil, .null?: role = nil
        case .string(let text)?:
            do { role = try Role(text) } catch { throw FileRefusal("\"role\": \(error)") }
        default: throw FileRefusal("\"role\" must be text, e.g. \"boarding-pass\".")
        }
        switch members["name"] {
        case nil, .null?: name = nil
        case .string(let text)?:
            if let problem = JobName.problem(text) { throw FileRefusal("\"name\": \(problem)") }
            name = text
        default: throw FileRefusal("\"name\" must be text, e.g. \"BP SK1234 row 12\".")
        }
        switch members["copies"] {
        case nil, .null?: copies = 1
        case .integer(let count)? where (1...99).contains(count): copies = count
        default: throw FileRefusal("\"copies\" must be a whole number from 1 to 99.")
        }
        switch members["drawer"] {
        case nil, .null?: opensDrawer = false
        case .bool(let opens)?: opensDrawer = opens
        default: throw FileRefusal("\"drawer\" must be true (kick the cash drawer after the cut) or false.")
        }
    }

    /// The one thing the envelope prints: a template, or ZPL, or ESC/POS.
    private static func content(_ members: [String: TemplateData]) throws(FileRefusal) -> Content {
        let given = ["template", "zpl", "escpos-base64"].filter { members[$0] != nil }
        guard given.count <= 1 else {
            throw FileRefusal("it has \(given.map { "\"\($0)\"" }.joined(separator: " and ")): a job file prints one of them; keep one.")
        }
        switch members["zpl"] {
        case nil: break
        case .string(let text)? where !text.isEmpty:
            try noData(members, for: "zpl")
            return .printerLanguage(.zpl, Data(text.utf8))
        default: throw FileRefusal("\"zpl\" must be the label's ZPL as text, e.g. \"^XA^FO50,50^FDHello^FS^XZ\".")
        }
        switch members["escpos-base64"] {
        case nil: break
        case .string(let text)?:
            // Line breaks are allowed (base64 is often wrapped at 76 characters); anything else not base64 is refused.
            guard let bytes = Data(base64Encoded: String(text.filter { !$0.isWhitespace })), !bytes.isEmpty else {
                throw FileRefusal("\"escpos-base64\" is not base64 text (or is empty): encode the ESC/POS bytes with base64.")
            }
            try noData(members, for: "escpos-base64")
            return .printerLanguage(.escpos, bytes)
        default: throw FileRefusal("\"escpos-base64\" must be the ESC/POS bytes as base64 text.")
        }
        guard case .string(let template)? = members["template"], !template.isEmpty else {
            throw FileRefusal("it does not say what to print: add \"template\": \"NAME\" (`kioskprint templates list` shows them) "
                + "with its \"data\", or printer-language bytes in \"zpl\" or \"escpos-base64\".")
        }
        // Whoever can drop a file must not be able to point the agent at any template file on the machine.
        guard !TemplateCatalog.isPath(template) else {
            throw FileRefusal("\"template\": \"\(template)\" is a file path, and a job file names a template by its name only, "
                + "e.g. \"receipt\" (`kioskprint templates list` shows them). Put the template in a templates folder "
                + "and give its name without the folder and the .xml.")
        }
        guard case .object? = members["data"], let data = members["data"] else {
            throw FileRefusal("it has no \"data\" object with the values for the template \(template).")
        }
        return .template(name: template, dataJSON: data.jsonText)
    }

    /// Printer-language bytes are sent as they are: data for a template has no place beside them.
    private static func noData(_ members: [String: TemplateData], for key: String) throws(FileRefusal) {
        guard members["data"] == nil else {
            throw FileRefusal("it has \"data\" beside \"\(key)\": \"data\" goes with a \"template\", and \"\(key)\" is printed as it is.")
        }
    }
}

/// Why a dropped file was not queued, as written into its `.error` file.
package struct FileRefusal: Error, Equatable, CustomStringConvertible {
    let reason: String
    init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}
