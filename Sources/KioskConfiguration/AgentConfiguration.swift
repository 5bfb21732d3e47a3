import Foundation
public import PrintModel
public import Templates

/// What `kioskprint run` does, as read from its TOML file (see
/// docs/CONFIGURATION.md for every key). A value type: a reload reads a new
/// one and swaps it in whole, or keeps the old one.
public struct AgentConfiguration: Sendable, Equatable {
    /// The file it was read from; nil for the built-in defaults.
    public var source: String?
    /// This box's name: `{{box}}` in button data.
    public var box: String
    /// The database file; nil for the usual default.
    public var database: String?
    /// Custom template folders; nil for the usual default.
    public var templateFolders: [String]?
    public var logLevel: LogLevelName
    /// How long a job waits on a printer in trouble before going to a backup.
    public var failoverAfter: Duration
    /// How often an idle agent looks in the database for work nobody told it
    /// of; jobs queued by other processes wake it at once through the
    /// database's writes, so this is only the safety net.
    public var lookEvery: Duration
    public var folders: [FolderSettings]
    public var buttons: [ButtonSettings]
    public var lights: [LightSettings]
    /// What each role's jobs do beyond the defaults (`[role.NAME]`).
    public var roleSettings: [Role: RoleSettings] = [:]
    /// How long finished jobs are kept (`[retention]`).
    public var retention = RetentionSettings()
    /// The local HTTP API (`[http]`).
    public var http = HTTPSettings()
    /// `[ipp]`: where the role printers listen.
    public var ipp = IPPSettings()

    public init(source: String? = nil, box: String = AgentConfiguration.hostName(), database: String? = nil,
                templateFolders: [String]? = nil, logLevel: LogLevelName = .info, failoverAfter: Duration = .seconds(30),
                lookEvery: Duration = .seconds(5), folders: [FolderSettings] = [], buttons: [ButtonSettings] = [], lights: [LightSettings] = []) {
        self.source = source
        self.box = box
        self.database = database
        self.templateFolders = templateFolders
        self.logLevel = logLevel
        self.failoverAfter = failoverAfter
        self.lookEvery = lookEvery
        self.folders = folders
        self.buttons = buttons
        self.lights = lights
    }

    /// The machine's host name, the default box name.
    public static func hostName() -> String {
        ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "kiosk"
    }

    /// Every role the configuration sends jobs to or shows a light for.
    /// The roles served as IPP printers.
    public var ippRoles: Set<Role> { Set(roleSettings.filter(\.value.ippPrinter).keys) }
    /// `[epos]`: who may use the ePOS-Print endpoints.
    public var epos = PosClientSettings()
    /// The roles served over ePOS-Print, by the `devid` each answers to.
    public var eposRoles: [String: Role] {
        Dictionary(roleSettings.compactMap { role, settings in settings.eposDeviceID.map { ($0, role) } }) { first, _ in first }
    }
    /// `[webprnt]`: who may use the WebPRNT endpoint.
    public var webprnt = PosClientSettings()
    /// The roles served over Star WebPRNT (`webprnt = true`).
    public var webprntRoles: Set<Role> { Set(roleSettings.filter(\.value.webprnt).keys) }
    /// Whether the role printers' listener (`[ipp] listen`) opens: a role served over IPP, ePOS-Print or WebPRNT.
    public var servesRolePrinters: Bool { !ippRoles.isEmpty || !eposRoles.isEmpty || !webprntRoles.isEmpty }
    /// The roles served as raw printers, with their listeners.
    public var rawRoles: [Role: RawListenSettings] { roleSettings.compactMapValues(\.raw) }

    public var roles: Set<Role> {
        var roles = Set(folders.compactMap(\.role) + lights.map(\.role))
        for button in buttons {
            for action in [button.press, button.longPress].compactMap({ $0 }) {
                switch action {
                case .print(let print): roles.insert(print.role)
                case .reprint(let role), .openDrawer(let role): roles.insert(role)
                }
            }
        }
        return roles
    }
}

/// The log levels a configuration may name.
public enum LogLevelName: String, Sendable, Hashable, CaseIterable {
    case debug, info, notice, warning, error
}

/// A `[[folder]]`: a watched folder and what its files become.
public struct FolderSettings: Sendable, Hashable {
    /// Its key in the file, e.g. `folder[2]`, for messages.
    public var key: String
    public var path: String
    /// The role that prints its files; nil when envelopes name their own.
    public var role: Role?
    /// With a template, `.json` files are its data; without, envelopes.
    public var template: String?
    public var doneLimit: Int
    public var maxFileSize: Int64

    public init(key: String, path: String, role: Role? = nil, template: String? = nil,
                doneLimit: Int = 1000, maxFileSize: Int64 = 10 * 1_048_576) {
        self.key = key
        self.path = path
        self.role = role
        self.template = template
        self.doneLimit = doneLimit
        self.maxFileSize = maxFileSize
    }
}

/// A `[[button]]`: a push button and what its presses do.
public struct ButtonSettings: Sendable, Equatable {
    public var key: String
    public var name: String
    public var line: LineAddress
    public var activeLow: Bool
    public var bias: Bias
    public var debounce: Duration
    public var longPressAfter: Duration
    public var press: ButtonAction
    /// What a long press does; nil when a long press counts as a short one.
    public var longPress: ButtonAction?

    public init(key: String, name: String, line: LineAddress, activeLow: Bool = true, bias: Bias = .pullUp,
                debounce: Duration = .milliseconds(30), longPressAfter: Duration = .seconds(2),
                press: ButtonAction, longPress: ButtonAction? = nil) {
        self.key = key
        self.name = name
        self.line = line
        self.activeLow = activeLow
        self.bias = bias
        self.debounce = debounce
        self.longPressAfter = longPressAfter
        self.press = press
        self.longPress = longPress
    }
}

/// What a button press does.
public enum ButtonAction: Sendable, Equatable {
    case print(PrintAction)
    /// Queue the role's last job again.
    case reprint(Role)
    /// Open the cash drawer on the role's printer.
    case openDrawer(Role)
}

/// A role's own settings: `[role.coupon]`.
public struct RoleSettings: Sendable, Equatable {
    /// Where it stands in the file, e.g. `role.coupon`.
    public var key: String
    /// What a job whose fate is unknown does; nil for the role's default.
    public var unknownFate: UnknownFateRule?
    /// How the knife cuts this role's jobs, unless the template says; nil
    /// for the printer's own (partial where it has both).
    public var cutStyle: CutStyle?
    /// What a job the printer would print on other paper does; nil for `fail`.
    public var mediaChanges: MediaChangeRule?
    /// Served as an IPP Everywhere printer at `/ipp/print/ROLE` (`ipp-printer = true`).
    public var ippPrinter = false
    /// Served as a raw printer (ESC/POS or ZPL on a TCP port, like a printer's 9100); nil: not.
    public var raw: RawListenSettings?
    /// Served as an Epson ePOS-Print device (`epos = true`): the `devid` it
    /// answers to (`epos-devid`, else the role's name); nil: not served.
    public var eposDeviceID: String?
    /// Served as a Star WebPRNT printer (`webprnt = true`) at `/StarWebPRNT/SendMessage`.
    public var webprnt = false
    /// How its documents reach a raw receipt printer (`delivery`); nil: `RawDelivery.defaultDelivery`.
    public var delivery: RawDelivery?

    public init(key: String, unknownFate: UnknownFateRule? = nil, cutStyle: CutStyle? = nil,
                mediaChanges: MediaChangeRule? = nil) {
        self.key = key; self.unknownFate = unknownFate; self.cutStyle = cutStyle; self.mediaChanges = mediaChanges
    }
}

/// A button's "print this template" action.
public struct PrintAction: Sendable, Equatable {
    /// The data names the agent fills in itself, which fixed data may not use.
    public static let builtInValues = ["time", "date", "box", "button", "counter"]

    public var template: String
    public var role: Role
    /// A persistent counter's name: each press takes its next number.
    public var counter: String?
    /// The counter's last number before it starts again at 1; nil: no end.
    public var counterLimit: Int?
    public var copies: Int
    /// The fixed data, a JSON object.
    public var fixedData: TemplateData

    public init(template: String, role: Role, counter: String? = nil, counterLimit: Int? = nil, copies: Int = 1,
                fixedData: TemplateData = .object([:])) {
        self.counterLimit = counterLimit
        self.template = template
        self.role = role
        self.counter = counter
        self.copies = copies
        self.fixedData = fixedData
    }
}

/// A `[[light]]`: an output line showing a role's printer.
public struct LightSettings: Sendable, Hashable {
    public var key: String
    public var role: Role
    public var line: LineAddress
    public var activeLow: Bool
    public var checkEvery: Duration

    public init(key: String, role: Role, line: LineAddress, activeLow: Bool = false, checkEvery: Duration = .seconds(2)) {
        self.key = key
        self.role = role
        self.line = line
        self.activeLow = activeLow
        self.checkEvery = checkEvery
    }
}
