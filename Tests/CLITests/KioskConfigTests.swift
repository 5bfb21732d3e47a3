import Foundation
import Testing

/// The ready-made deployments in `kiosk-config/`: each is complete, its
/// templates are clean with their sample data, and every sample job file is
/// data its template accepts, checked with the built `kioskprint` as an
/// integrator would check them.
@Suite(.timeLimit(.minutes(3)))
struct KioskConfigTests {
    /// The repository's root: this file is `Tests/CLITests/KioskConfigTests.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let configFolder = root.appendingPathComponent("kiosk-config")

    /// Every deployment folder under `kiosk-config/`, by name; `monitoring/`
    /// holds a fleet's alert rules and dashboard (tested in MetricsTests) and `web-pos/` a developer's pages (EposPrintTests, WebPrntTests), not a box.
    static var deployments: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: configFolder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !["monitoring", "web-pos"].contains($0) && isFolder(configFolder.appendingPathComponent($0).path) }.sorted()
    }

    static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    static func folder(_ deployment: String) -> URL { configFolder.appendingPathComponent(deployment) }

    /// The deployment's `templates/` folder, passed to every check so that its
    /// custom templates (and only they) come before the built-ins.
    static func templatesFolder(_ deployment: String) -> String {
        folder(deployment).appendingPathComponent("templates").path
    }

    /// Files under `folder` (recursively) whose names end in `suffix`.
    static func files(under folder: URL, endingIn suffix: String) -> [URL] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// Runs `kioskprint templates check` and returns its output, recording a
    /// failure when it does not exit 0, prints an error line, or did not check
    /// the bindings with data.
    @discardableResult
    static func check(_ template: String, data: String, deployment: String, what: String, options: [String] = [],
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await CommandRunner().run(["templates", "check", template, "--data", data,
                                              "--templates", templatesFolder(deployment)] + options)
        let lines = (result.output + "\n" + result.errors).split(separator: "\n")
        #expect(result.status == 0, "\(what): templates check exited \(result.status):\n\(result.output)\(result.errors)",
                sourceLocation: sourceLocation)
        let errors = lines.filter { $0.hasPrefix("error:") || $0.hasPrefix("Error:") }
        #expect(errors.isEmpty, "\(what): \(errors.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(result.output.contains(".xml: OK"), "\(what): no OK line in:\n\(result.output)", sourceLocation: sourceLocation)
        #expect(!result.output.contains("no data to check the bindings with"), "\(what): checked without data",
                sourceLocation: sourceLocation)
        return result.output
    }

    static func jsonObject(_ url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        let object = try JSONSerialization.jsonObject(with: data)
        return try #require(object as? [String: Any], "\(url.path) is not a JSON object")
    }

    static func temporaryFile(_ object: Any) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-kc-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        return url.path
    }

    @Test func theThreeExampleDeploymentsAreThere() {
        for name in ["retail-register", "airline-kiosk", "queue-ticket"] {
            #expect(Self.deployments.contains(name), "kiosk-config/\(name) is missing")
        }
    }

    @Test(arguments: deployments)
    func aDeploymentHasItsReadmeConfigurationAndSamples(_ deployment: String) {
        let folder = Self.folder(deployment)
        for file in ["README.md", "kioskprint.toml"] {
            let path = folder.appendingPathComponent(file).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(deployment)/\(file) is missing or empty")
        }
        let samples = Self.files(under: folder.appendingPathComponent("samples"), endingIn: ".json")
        #expect(!samples.isEmpty, "\(deployment)/samples has no sample job file")
    }

    /// Each watched folder is created, owned by the agent, by the
    /// deployment's tmpfiles.d snippet, and the README tells the application
    /// where to write and names every role to pick a printer for.
    @Test(arguments: deployments)
    func theWatchedFoldersAreCreatedAndDocumented(_ deployment: String) throws {
        let config = try ExampleDeploymentConfig(deployment: deployment)
        let readme = (try? String(contentsOf: Self.folder(deployment).appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        let folders = config.folders.compactMap { $0["path"] }
        let tmpfiles = (try? String(contentsOf: Self.folder(deployment).appendingPathComponent("kioskprint.tmpfiles"),
                                    encoding: .utf8)) ?? ""
        let entries = tmpfiles.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        for path in folders {
            let entry = entries.first { $0.count >= 5 && $0[1] == path }
            #expect(entry?[0] == "d" && entry?[2] == "3770" && entry?[3] == "kioskprint",
                    "\(deployment)/kioskprint.tmpfiles should create \(path) for the kioskprint user: \(entry ?? [])")
            #expect(readme.contains(path), "\(deployment)/README.md does not say where to write: \(path)")
        }
        for role in config.roles.sorted() {
            #expect(readme.contains("printers pick --role \(role)"), "\(deployment)/README.md does not say to pick a printer for \(role)")
        }
    }

    @Test(arguments: deployments)
    func everyCustomTemplateIsCleanWithItsSampleData(_ deployment: String) async throws {
        let folder = Self.templatesFolder(deployment)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }.map { String($0.dropLast(4)) }.sorted()
        for name in names {
            let sample = "\(folder)/\(name).sample.json"
            #expect(FileManager.default.fileExists(atPath: sample), "\(deployment): \(name).xml has no \(name).sample.json beside it")
            guard FileManager.default.fileExists(atPath: sample) else { continue }
            // Roll templates on both usual rolls (80 mm is the default preview); a fixed size on its own page.
            let markup = try String(contentsOfFile: "\(folder)/\(name).xml", encoding: .utf8)
            let widths: [[String]] = markup.contains("page=\"roll\"") ? [[], ["--width", "58mm"]] : [[]]
            for width in widths {
                let what = "\(deployment)/templates/\(name).xml \(width.joined(separator: " "))"
                let output = try await Self.check(name, data: sample, deployment: deployment, what: what, options: width)
                // The custom file was checked, not a built-in of the same name.
                #expect(output.contains("\(folder)/\(name).xml: OK"), "\(what): \(output)")
                let warnings = output.split(separator: "\n").filter { $0.hasPrefix("warning:") }
                #expect(warnings.isEmpty, "\(what): \(warnings.joined(separator: "\n"))")
            }
        }
    }

    /// `kioskprint config check` reads the file as the agent would. The
    /// watched folders must exist, so the file is checked from a scratch
    /// folder with each watched folder moved into it; `templates/` is linked
    /// beside it, so relative paths resolve as they do in /etc/kioskprint.
    @Test(arguments: deployments)
    func theAgentAcceptsTheConfiguration(_ deployment: String) async throws {
        let config = try ExampleDeploymentConfig(deployment: deployment)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-kc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        var text = try String(contentsOf: Self.folder(deployment).appendingPathComponent("kioskprint.toml"), encoding: .utf8)
        for path in config.folders.compactMap({ $0["path"] }) {
            #expect(path.hasPrefix("/"), "\(deployment): the watched folder \(path) should be absolute, as installed")
            let local = scratch.appendingPathComponent("spool").appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            text = text.replacingOccurrences(of: "\"\(path)\"", with: "\"\(local.path)\"")
        }
        let templates = Self.templatesFolder(deployment)
        if FileManager.default.fileExists(atPath: templates) {
            try FileManager.default.createSymbolicLink(atPath: scratch.appendingPathComponent("templates").path,
                                                       withDestinationPath: templates)
        }
        let file = scratch.appendingPathComponent("kioskprint.toml").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        let runner = CommandRunner(environment: ["KIOSKPRINT_DATABASE": scratch.appendingPathComponent("db.sqlite").path])
        let result = try await runner.run(["config", "check", file])
        #expect(result.status == 0, "\(deployment)/kioskprint.toml: config check exited \(result.status):\n\(result.output)\(result.errors)")
        #expect(result.output.contains("\(file): OK"), "\(deployment)/kioskprint.toml: \(result.output)\(result.errors)")
        for action in config.actions {
            #expect(action.values["print"] != nil || action.values["reprint"] != nil,
                    "\(deployment): button \(action.button) has an action that neither prints nor reprints")
        }
    }

    @Test(arguments: deployments)
    func theTemplatesTheConfigurationNamesExistAndAreClean(_ deployment: String) async throws {
        let config = try ExampleDeploymentConfig(deployment: deployment)
        let named = Set(config.folders.compactMap { $0["template"] } + config.actions.compactMap { $0.values["print"] })
        for name in named.sorted() {
            let result = try await CommandRunner().run(["templates", "check", name, "--templates", Self.templatesFolder(deployment)])
            #expect(result.status == 0, "\(deployment): the template \(name) the configuration names: \(result.output)\(result.errors)")
        }
    }

    /// Each sample sits in a folder named after where it is dropped: a
    /// watched folder's last path component (its data, or envelopes when the
    /// folder has no template), or a button's name (the data a press gives).
    @Test(arguments: deployments)
    func everySampleIsDataItsTemplateAccepts(_ deployment: String) async throws {
        let config = try ExampleDeploymentConfig(deployment: deployment)
        let samplesFolder = Self.folder(deployment).appendingPathComponent("samples")
        for sample in Self.files(under: samplesFolder, endingIn: ".json") {
            let label = "\(deployment)/samples/\(sample.path.dropFirst(samplesFolder.path.count + 1))"
            let place = sample.deletingLastPathComponent().lastPathComponent
            let object = try Self.jsonObject(sample)
            let folder = config.folders.first { ($0["path"]).map { URL(fileURLWithPath: $0).lastPathComponent } == place }
            let press = config.actions.first { $0.button == place && $0.values["print"] != nil }

            if let template = object["template"] as? String {
                // An envelope: only a watched folder without a template of its own reads envelopes.
                #expect(folder != nil && folder?["template"] == nil,
                        "\(label) is an envelope, but samples/\(place) is not a watched folder that takes envelopes")
                let data = try #require(object["data"] as? [String: Any], "\(label): an envelope needs a \"data\" object")
                if let role = object["role"] {
                    let role = try #require(role as? String, "\(label): \"role\" must be a string")
                    #expect(config.roles.contains(role), "\(label): the role \(role) is not one the configuration uses: \(config.roles.sorted())")
                }
                if let copies = object["copies"] { #expect((copies as? Int).map { $0 >= 1 } == true, "\(label): copies \(copies)") }
                if let name = object["name"] { #expect((name as? String)?.isEmpty == false, "\(label): an empty job name") }
                let unknown = Set(object.keys).subtracting(["template", "role", "name", "copies", "data"])
                #expect(unknown.isEmpty, "\(label): keys an envelope does not have: \(unknown.sorted())")
                let dataFile = try Self.temporaryFile(data)
                defer { try? FileManager.default.removeItem(atPath: dataFile) }
                try await Self.check(template, data: dataFile, deployment: deployment, what: label)
            } else if let template = folder?["template"] ?? press?.values["print"] {
                try await Self.check(template, data: sample.path, deployment: deployment, what: label)
            } else {
                Issue.record("\(label): samples/\(place) is neither a watched folder with a template nor a button that prints, so its template is unknown")
            }
        }
    }
}

/// What the tests need of a deployment's `kioskprint.toml`: its tables and
/// their keys with string or number values. A small reader for the subset
/// of TOML the examples use (tables, arrays of tables, `key = value` lines);
/// the agent's own loader reads the file for real.
struct ExampleDeploymentConfig {
    struct Table {
        var header: String
        var values: [String: String] = [:]
    }

    struct Action {
        var button: String
        var values: [String: String]
    }

    var tables: [Table] = []

    init(deployment: String) throws {
        let path = KioskConfigTests.folder(deployment).appendingPathComponent("kioskprint.toml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        tables = [Table(header: "")]
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                let header = String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
                tables.append(Table(header: header))
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else {
                Issue.record("\(deployment)/kioskprint.toml:\(number + 1): not a key = value line: \(line)")
                continue
            }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\"") {
                value = String(value.dropFirst().prefix { $0 != "\"" })
            } else {
                value = String(value.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
            }
            #expect(tables[tables.count - 1].values[key] == nil, "\(deployment)/kioskprint.toml:\(number + 1): \(key) is given twice")
            tables[tables.count - 1].values[key] = value
        }
    }

    var folders: [[String: String]] { tables.filter { $0.header == "[[folder]]" }.map(\.values) }
    var lights: [[String: String]] { tables.filter { $0.header == "[[light]]" }.map(\.values) }

    /// Button actions, each with the name of the button it belongs to.
    var actions: [Action] {
        var button = ""
        var found: [Action] = []
        for table in tables {
            if table.header == "[[button]]" { button = table.values["name"] ?? "" }
            if table.header == "[button.press]" || table.header == "[button.long-press]" {
                found.append(Action(button: button, values: table.values))
            }
        }
        return found
    }

    /// Every role the configuration names: folders, button actions, lights.
    var roles: Set<String> {
        Set(folders.compactMap { $0["role"] } + lights.compactMap { $0["role"] }
            + actions.compactMap { $0.values["role"] ?? $0.values["reprint"] })
    }
}
