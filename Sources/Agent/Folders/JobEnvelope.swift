import Foundation
import PrintModel
import Templates

/// A JSON job file that says what to print: `{"template", "role", "name",
/// "copies", "data"}`, for folders that take several kinds of job.
struct JobEnvelope: Equatable {
    static let keys = ["template", "role", "name", "copies", "data"]

    var template: String
    var role: Role?
    var name: String?
    var copies: Int
    /// The template's data, as JSON text.
    var dataJSON: String

    init(template: String, role: Role?, name: String?, copies: Int, dataJSON: String) {
        self.template = template
        self.role = role
        self.name = name
        self.copies = copies
        self.dataJSON = dataJSON
    }

    /// Reads an envelope; the error says which part is wrong, in words for
    /// whoever wrote the file.
    init(json: Data, file: String) throws(FileRefusal) {
        let document: TemplateData
        do { document = try TemplateData(json: json, file: file) } catch {
            throw FileRefusal("it is not valid JSON: \(error)")
        }
        guard case .object(let members) = document else { throw FileRefusal("it is not a JSON object.") }
        let unknown = members.keys.filter { !Self.keys.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw FileRefusal("it has \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")), which a job file does not take. "
                + "A job file has \"template\" and \"data\", and may have \"role\", \"name\" and \"copies\"; "
                + "a folder with a template of its own takes the data alone.")
        }
        guard case .string(let template)? = members["template"], !template.isEmpty else {
            throw FileRefusal("it does not say which template to print: add \"template\": \"NAME\" (`kioskprint templates list` shows them).")
        }
        guard case .object? = members["data"], let data = members["data"] else {
            throw FileRefusal("it has no \"data\" object with the values for the template \(template).")
        }
        self.template = template
        dataJSON = data.jsonText
        switch members["role"] {
        case nil, .null?: role = nil
        case .string(let text)?:
            do { role = try Role(text) } catch { throw FileRefusal("\"role\": \(error)") }
        default: throw FileRefusal("\"role\" must be text, e.g. \"boarding-pass\".")
        }
        switch members["name"] {
        case nil, .null?: name = nil
        case .string(let text)?: name = text
        default: throw FileRefusal("\"name\" must be text, e.g. \"BP SK1234 row 12\".")
        }
        switch members["copies"] {
        case nil, .null?: copies = 1
        case .integer(let count)? where (1...99).contains(count): copies = count
        default: throw FileRefusal("\"copies\" must be a whole number from 1 to 99.")
        }
    }
}

/// Why a dropped file was not queued, as written into its `.error` file.
struct FileRefusal: Error, Equatable, CustomStringConvertible {
    let reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
}
