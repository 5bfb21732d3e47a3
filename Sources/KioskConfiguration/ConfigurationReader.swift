import Foundation
import PrintModel
import Templates

/// Turns the file's tables into settings, recording a problem for each key
/// that is wrong instead of stopping at the first.
struct ConfigurationReader {
    let log: ProblemLog
    /// The configuration file's folder: relative paths start there.
    let folder: String

    func read(_ top: TableReader, source: String) -> AgentConfiguration {
        var configuration = AgentConfiguration(source: source)
        if let box = top.string("box") {
            if box.isEmpty { top.problem("box", "is empty; give this box a name, e.g. box = \"till-3\".") } else { configuration.box = box }
        }
        configuration.database = top.string("database").map(absolute)
        configuration.templateFolders = top.stringList("templates")?.map(absolute)
        if let level = top.choice("log-level", from: LogLevelName.allCases.map(\.rawValue)) {
            configuration.logLevel = LogLevelName(rawValue: level) ?? .info
        }
        if let spooler = top.table("spooler") {
            if let grace = spooler.duration("failover-after", in: .seconds(1) ... .seconds(3600)) { configuration.failoverAfter = grace }
            if let look = spooler.duration("look-every", in: .milliseconds(100) ... .seconds(86400)) { configuration.lookEvery = look }
            spooler.rejectUnknownKeys()
        }
        if let retention = top.table("retention") {
            if let age = retention.duration("keep-for", in: .seconds(3_600) ... .seconds(3_650 * 86_400)) {
                configuration.retention.keepFor = age
            }
            if let count = retention.integer("keep-jobs", in: 0...100_000_000) { configuration.retention.keepJobs = count }
            if let every = retention.duration("purge-every", in: .seconds(60) ... .seconds(7 * 86_400)) {
                configuration.retention.purgeEvery = every
            }
            retention.rejectUnknownKeys()
        }
        if let http = top.table("http") { configuration.http = self.http(http) }
        if let ipp = top.table("ipp") { configuration.ipp = self.ipp(ipp) }
        if let epos = top.table("epos") { configuration.epos = posClients(epos) }
        if let webprnt = top.table("webprnt") { configuration.webprnt = posClients(webprnt) }
        configuration.folders = top.tables("folder").compactMap(folder)
        configuration.buttons = top.tables("button").compactMap(button)
        configuration.lights = top.tables("light").compactMap(light)
        if let roles = top.table("role") {
            for (name, table) in roles.namedTables() {
                defer { table.rejectUnknownKeys() }
                guard let role = try? Role(name) else {
                    log.add(table.path, "\"\(name)\" is not a usable role name: use letters, digits, '-' and '_'.")
                    continue
                }
                var settings = RoleSettings(key: table.path)
                settings.unknownFate = table.choice("unknown-fate", from: UnknownFateRule.allCases.map(\.rawValue))
                    .flatMap(UnknownFateRule.init(rawValue:))
                settings.cutStyle = table.choice("cut-style", from: CutStyle.allCases.map(\.rawValue)).flatMap(CutStyle.init(rawValue:))
                settings.mediaChanges = table.choice("media-changes", from: MediaChangeRule.allCases.map(\.rawValue))
                    .flatMap(MediaChangeRule.init(rawValue:))
                settings.ippPrinter = table.boolean("ipp-printer") ?? false
                settings.raw = raw(table)
                let devid = table.string("epos-devid")
                if table.boolean("epos") ?? false {
                    settings.eposDeviceID = devid ?? name
                } else if devid != nil {
                    table.problem("epos-devid", "has no epos = true beside it: add epos = true to serve the role over ePOS-Print.")
                }
                settings.webprnt = table.boolean("webprnt") ?? false
                settings.delivery = table.choice("delivery", from: RawDelivery.allCases.map(\.rawValue)).flatMap(RawDelivery.init(rawValue:))
                configuration.roleSettings[role] = settings
            }
        }
        top.rejectUnknownKeys()
        rejectDuplicates(configuration)
        return configuration
    }

    /// `[http]`: listen, socket, allowed-origins, max-body, rate-limit, tls-certificate, tls-key.
    func http(_ table: TableReader) -> HTTPSettings {
        var settings = HTTPSettings()
        if let listen = table.string("listen") {
            if listen == "off" {
                settings.listen = nil
            } else {
                switch ListenAddress.parse(listen) {
                case .success(let address): settings.listen = address
                case .failure(let reason): table.problem("listen", reason.description)
                }
            }
        }
        if let socket = table.string("socket") {
            if socket == "off" { settings.socketOff = true } else if socket.hasPrefix("/") { settings.socket = socket } else {
                table.problem("socket", "\"\(socket)\" is not an absolute path; give one such as \"/run/kioskprint/api.sock\", or \"off\".")
            }
        }
        if let origins = table.stringList("allowed-origins") {
            for (index, origin) in origins.enumerated() {
                // Compared as browsers mean them (any case, default port or not, a slash at the end or not) by the API.
                let lowered = origin.lowercased()
                let hostAndPort = lowered.dropFirst(lowered.hasPrefix("https://") ? 8 : 7).dropLast(lowered.hasSuffix("/") ? 1 : 0)
                let valid = (lowered.hasPrefix("https://") || lowered.hasPrefix("http://")) && !hostAndPort.isEmpty
                    && hostAndPort.allSatisfy { $0 != "/" && !$0.isWhitespace }
                if valid { settings.allowedOrigins.append(origin) } else {
                    table.problem("allowed-origins", "item \(index + 1), \"\(origin)\", is not an origin; write the scheme, "
                        + "host and port only, as a browser sends it, e.g. \"https://pos.example.com\" or \"http://localhost:3000\".")
                }
            }
        }
        if let size = table.size("max-body") {
            if size > 50 * 1_048_576 || size < 1024 { table.problem("max-body", "give 1KB to 50MB.") } else { settings.maxBody = size }
        }
        if let rate = table.integer("rate-limit", in: 1...10_000) { settings.rateLimit = rate }
        settings.tlsCertificate = table.string("tls-certificate").map(absolute)
        settings.tlsKey = table.string("tls-key").map(absolute)
        if (settings.tlsCertificate == nil) != (settings.tlsKey == nil) {
            table.problem(settings.tlsKey == nil ? "tls-key" : "tls-certificate",
                          "is missing: HTTPS needs both tls-certificate and tls-key (PEM files).")
        }
        if let listen = settings.listen, !listen.isLoopback, settings.tlsCertificate == nil {
            table.problem("listen", ListenAddressError.needsTLS(listen).description)
        }
        table.rejectUnknownKeys()
        return settings
    }

    /// `[ipp]`: listen, require-token, tls, tls-certificate, tls-key.
    func ipp(_ table: TableReader) -> IPPSettings {
        var settings = IPPSettings()
        if let listen = table.string("listen") {
            switch ListenAddress.parse(listen) {
            case .success(let address): settings.listen = address
            case .failure(let reason): table.problem("listen", reason.description)
            }
        }
        settings.requireToken = table.boolean("require-token") ?? false
        settings.tlsCertificate = table.string("tls-certificate").map(absolute)
        settings.tlsKey = table.string("tls-key").map(absolute)
        if (settings.tlsCertificate == nil) != (settings.tlsKey == nil) {
            table.problem(settings.tlsKey == nil ? "tls-key" : "tls-certificate",
                          "is missing: ipps:// needs both tls-certificate and tls-key (PEM files).")
        }
        let chosen = table.boolean("tls")
        settings.tls = chosen ?? (settings.tlsCertificate != nil || !settings.listen.isLoopback)
        if chosen == false, !settings.listen.isLoopback {
            table.problem("tls", "is false, but \"\(settings.listen.host)\" can be reached from other machines and the role printers "
                + "are served there only over TLS: remove tls = false (the agent then makes a certificate), or listen on 127.0.0.1 or ::1.")
        } else if chosen == false, settings.tlsCertificate != nil {
            table.problem("tls", "is false, but tls-certificate is given: remove one of them.")
        }
        table.rejectUnknownKeys()
        return settings
    }

    /// `[epos]` or `[webprnt]`: clients, origins, require-token.
    func posClients(_ table: TableReader) -> PosClientSettings {
        var settings = PosClientSettings()
        for client in table.stringList("clients") ?? [] {
            switch ClientNetwork.parse(client) {
            case .success(let network): settings.clients.append(network)
            case .failure(let reason): table.problem("clients", reason.description)
            }
        }
        for origin in table.stringList("origins") ?? [] {
            guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil,
                  url.path.isEmpty || url.path == "/" else {
                table.problem("origins", "\"\(origin)\" is not a web origin: write it as the page's scheme, host and port, e.g. \"https://pos.example.com\".")
                continue
            }
            settings.origins.append(origin.hasSuffix("/") ? String(origin.dropLast()) : origin)
        }
        settings.requireToken = table.boolean("require-token") ?? false
        table.rejectUnknownKeys()
        return settings
    }

    /// A role's `raw-listen`, `raw-clients` and `raw-job-gap`; nil without `raw-listen`.
    func raw(_ table: TableReader) -> RawListenSettings? {
        let clientTexts = table.stringList("raw-clients")
        let gap = table.duration("raw-job-gap", in: .milliseconds(100) ... .seconds(60))
        guard let text = table.string("raw-listen") else {
            if clientTexts != nil || gap != nil {
                table.problem(clientTexts != nil ? "raw-clients" : "raw-job-gap",
                              "has no raw-listen beside it: add raw-listen = \"127.0.0.1:9100\" (or the LAN address) to serve the role as a raw printer.")
            }
            return nil
        }
        let listen: ListenAddress
        switch ListenAddress.parse(text) {
        case .success(let address): listen = address
        case .failure(let reason):
            table.problem("raw-listen", reason.description)
            return nil
        }
        var clients: [ClientNetwork] = []
        for client in clientTexts ?? [] {
            switch ClientNetwork.parse(client) {
            case .success(let network): clients.append(network)
            case .failure(let reason): table.problem("raw-clients", reason.description)
            }
        }
        if !listen.isLoopback, clients.isEmpty {
            table.problem("raw-listen", "\"\(listen.host)\" can be reached from other machines, and a raw printer asks for no password: "
                + "list who may print there in raw-clients (the tills' network, e.g. [\"192.168.1.0/24\"]), or listen on 127.0.0.1.")
        }
        return RawListenSettings(listen: listen, clients: clients, jobGap: gap ?? RawListenSettings.defaultJobGap)
    }

    private func folder(_ table: TableReader) -> FolderSettings? {
        defer { table.rejectUnknownKeys() }
        let path = table.requiredString("path", example: "\"/var/spool/kioskprint/pos\"")
        let role = table.role("role")
        let template = table.string("template")
        var settings = FolderSettings(key: table.path, path: path.map(absolute) ?? "", role: role, template: template)
        if let limit = table.integer("done-limit", in: 0...1_000_000) { settings.doneLimit = limit }
        if let size = table.size("max-size") {
            if size > 50 * 1_048_576 { table.problem("max-size", "is over 50MB, the most a print job file may be.") } else { settings.maxFileSize = size }
        }
        if template != nil, role == nil, !table.has("role") {
            table.problem("role", "is required with template = \"\(template!)\": say which role's printer prints these files.")
        }
        return path == nil ? nil : settings
    }

    private func button(_ table: TableReader) -> ButtonSettings? {
        defer { table.rejectUnknownKeys() }
        let name = table.requiredString("name", example: "\"take-a-number\"")
        let line = gpioLine(table)
        let press: ButtonAction?
        if let pressTable = table.table("press") {
            press = action(pressTable)
        } else {
            table.problem("press", "is required: add a [\(table.path.replacingOccurrences(of: #"\[\d+\]$"#, with: "", options: .regularExpression)).press] table "
                + "saying what a press does, e.g. print = \"queue-ticket\" and role = \"ticket\", or reprint = \"receipt\".")
            press = nil
        }
        let longPress = table.table("long-press").flatMap(action)
        var settings: ButtonSettings?
        if let name, let line, let press {
            settings = ButtonSettings(key: table.path, name: name, line: line, press: press, longPress: longPress)
        }
        if let activeLow = table.boolean("active-low") { settings?.activeLow = activeLow }
        if let bias = table.choice("bias", from: Bias.allCases.map(\.rawValue)) {
            settings?.bias = Bias(rawValue: bias) ?? .pullUp
        }
        if let debounce = table.duration("debounce", in: .zero ... .seconds(1)) { settings?.debounce = debounce }
        if let long = table.duration("long-press-after", in: .milliseconds(100) ... .seconds(60)) { settings?.longPressAfter = long }
        return settings
    }

    private func action(_ table: TableReader) -> ButtonAction? {
        defer { table.rejectUnknownKeys() }
        let chosen = ["print", "reprint", "drawer"].filter(table.has)
        if chosen.count > 1 {
            let verb = chosen.count == 2 ? "are both set" : "are all set"
            table.problem(chosen[0], "and \(chosen.dropFirst().joined(separator: " and ")) \(verb); a press does one thing: keep one of them.")
            for key in chosen { _ = table.value(key) }
            return nil
        }
        switch chosen.first {
        case "reprint":
            return table.role("reprint").map(ButtonAction.reprint)
        case "drawer":
            return table.role("drawer").map(ButtonAction.openDrawer)
        case nil:
            table.problem("print", "is missing: say what the press does, print = \"TEMPLATE\" (with role = ...), "
                + "reprint = \"ROLE\" or drawer = \"ROLE\".")
            return nil
        default:
            let template = table.requiredString("print", example: "\"queue-ticket\"")
            let role: Role?
            if table.has("role") { role = table.role("role") } else {
                table.problem("role", "is required with print: say which role's printer prints it, e.g. role = \"ticket\".")
                _ = table.value("role")
                role = nil
            }
            let counter = table.string("counter")
            if let counter, counter.isEmpty || !counter.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
                table.problem("counter", "\"\(counter)\" is not a usable counter name: use letters, digits, '-' and '_'.")
            }
            let limit = table.integer("counter-wraps-after", in: 1...999_999_999)
            if limit != nil, counter == nil {
                table.problem("counter-wraps-after", "needs counter = \"NAME\": it says when that counter starts again at 1.")
            }
            let copies = table.integer("copies", in: 1...99) ?? 1
            let data = fixedData(table)
            guard let template, let role, let data else { return nil }
            return .print(PrintAction(template: template, role: role, counter: counter, counterLimit: limit, copies: copies, fixedData: data))
        }
    }

    /// The `data` table, refusing the names the agent fills in.
    private func fixedData(_ table: TableReader) -> TemplateData? {
        guard let entries = table.rawTable("data") else {
            return table.has("data") ? nil : .object([:])
        }
        var clean = true
        for entry in entries where PrintAction.builtInValues.contains(entry.key) {
            log.add("\(table.key("data")).\(entry.key)", "is filled in by the agent (\(PrintAction.builtInValues.joined(separator: ", "))); "
                + "rename your value, e.g. \"my-\(entry.key)\".")
            clean = false
        }
        return clean ? TemplateValues.data(.table(entries)) : nil
    }

    private func light(_ table: TableReader) -> LightSettings? {
        defer { table.rejectUnknownKeys() }
        let role: Role?
        if table.has("role") { role = table.role("role") } else {
            table.problem("role", "is required: the role whose printer this light shows, e.g. role = \"receipt\".")
            _ = table.value("role")
            role = nil
        }
        let line = gpioLine(table)
        guard let role, let line else {
            _ = (table.value("active-low"), table.value("check-every"))
            return nil
        }
        var settings = LightSettings(key: table.path, role: role, line: line)
        if let activeLow = table.boolean("active-low") { settings.activeLow = activeLow }
        if let every = table.duration("check-every", in: .milliseconds(200) ... .seconds(600)) { settings.checkEvery = every }
        return settings
    }

    private func gpioLine(_ table: TableReader) -> LineAddress? {
        let chip = table.requiredString("chip", example: "\"gpiochip0\" (gpiodetect lists the chips)")
        let line: LineSelector?
        switch table.value("line") {
        case .integer(let offset)?:
            if offset >= 0, offset < 1024 { line = .offset(offset) } else {
                table.problem("line", "\(offset) is not a line offset; give 0 to 1023 or the line's name (gpioinfo lists them).")
                line = nil
            }
        case .string(let name)? where !name.isEmpty: line = .name(name)
        case let other?:
            table.problem("line", "expected a line offset such as 17 or a line name such as \"GPIO17\", found \(other.shortText).")
            line = nil
        case nil:
            table.problem("line", "is required: the line's offset (17) or name (\"GPIO17\"); gpioinfo lists them.")
            line = nil
        }
        guard let chip, let line else { return nil }
        return LineAddress(chip: chip, line: line)
    }

    private func rejectDuplicates(_ configuration: AgentConfiguration) {
        var seenFolders: [String: String] = [:]
        for folder in configuration.folders {
            let path = (folder.path as NSString).standardizingPath
            if let first = seenFolders[path] {
                log.add("\(folder.key).path", "\"\(folder.path)\" is already watched by \(first); one folder, one [[folder]].")
            }
            seenFolders[path] = seenFolders[path] ?? folder.key
        }
        var devids: [String: Role] = [:]
        for (role, settings) in configuration.roleSettings.sorted(by: { $0.key.description < $1.key.description }) {
            guard let devid = settings.eposDeviceID else { continue }
            if let first = devids[devid] {
                log.add("role.\(role).epos-devid", "\"\(devid)\" is already the devid of the role \(first); give each role its own.")
            }
            devids[devid] = devids[devid] ?? role
        }
        if !devids.isEmpty, !configuration.ipp.listen.isLoopback, configuration.epos.clients.isEmpty {
            log.add("epos.clients", "is missing: the ePOS-Print endpoints are served on [ipp] listen \"\(configuration.ipp.listen)\", which other "
                + "machines reach, and Epson's clients send no password. List the tills' network (clients = [\"192.168.1.0/24\"]).")
        }
        if !configuration.webprntRoles.isEmpty, !configuration.ipp.listen.isLoopback, configuration.webprnt.clients.isEmpty {
            log.add("webprnt.clients", "is missing: the WebPRNT endpoint is served on [ipp] listen \"\(configuration.ipp.listen)\", which other "
                + "machines reach, and Star's clients send no password. List the tills' network (clients = [\"192.168.1.0/24\"]).")
        }
        var ports: [Int: String] = [:]
        if let http = configuration.http.listen { ports[http.port] = "[http] listen" }
        if configuration.servesRolePrinters { ports[configuration.ipp.listen.port] = "[ipp] listen" }
        for (role, raw) in configuration.rawRoles.sorted(by: { $0.key.description < $1.key.description }) where raw.listen.port != 0 {
            if let first = ports[raw.listen.port] {
                log.add("role.\(role).raw-listen", "port \(raw.listen.port) is already taken by \(first); give each raw printer a port of its own.")
            }
            ports[raw.listen.port] = ports[raw.listen.port] ?? "role.\(role).raw-listen"
        }
        var seenLines: [LineAddress: String] = [:]
        for (key, line) in configuration.buttons.map({ ($0.key, $0.line) }) + configuration.lights.map({ ($0.key, $0.line) }) {
            if let first = seenLines[line] {
                log.add("\(key).line", "\(line) is already used by \(first); each button and light needs its own line.")
            }
            seenLines[line] = seenLines[line] ?? key
        }
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : ((folder as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }
}
