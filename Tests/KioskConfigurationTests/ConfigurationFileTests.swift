import KioskConfiguration
import Foundation
import PrintModel
import Templates
import Testing

/// The agent's TOML file: what it accepts, and how it says what is wrong.
@Suite(.timeLimit(.minutes(1))) struct ConfigurationFileTests {
    let complete = """
        box = "till-3"
        database = "state/kioskprint.sqlite"
        templates = ["templates", "/etc/kioskprint/more"]
        log-level = "debug"

        [spooler]
        failover-after = "45s"
        look-every = "2s"

        [[folder]]
        path = "/var/spool/kioskprint/pos"
        role = "receipt"
        template = "receipt"
        done-limit = 50
        max-size = "2MB"

        [[folder]]
        path = "drop"

        [[button]]
        name = "take-a-number"
        chip = "gpiochip0"
        line = 17
        debounce = "20ms"
        long-press-after = "1.5s"
        [button.press]
        print = "queue-ticket"
        role = "ticket"
        counter = "deli"
        counter-wraps-after = 999
        [button.press.data]
        heading = "Deli \\"counter\\""
        lines = ["one", 2, true]
        [button.long-press]
        reprint = "ticket"

        [[light]]
        role = "ticket"
        chip = "gpiochip0"
        line = "GPIO27"
        active-low = true
        """

    func parse(_ text: String) throws(ConfigurationError) -> AgentConfiguration {
        try ConfigurationFile.parse(text, source: "kioskprint.toml", relativeTo: "/etc/kioskprint")
    }

    func problems(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func aCompleteFileGivesEverySetting() throws {
        let configuration = try parse(complete)
        #expect(configuration.box == "till-3")
        #expect(configuration.database == "/etc/kioskprint/state/kioskprint.sqlite")
        #expect(configuration.templateFolders == ["/etc/kioskprint/templates", "/etc/kioskprint/more"])
        #expect(configuration.logLevel == .debug)
        #expect(configuration.failoverAfter == .seconds(45))
        #expect(configuration.lookEvery == .seconds(2))
        #expect(configuration.folders.count == 2)
        #expect(configuration.folders[0] == FolderSettings(key: "folder[1]", path: "/var/spool/kioskprint/pos", role: try Role("receipt"),
                                                           template: "receipt", doneLimit: 50, maxFileSize: 2 * 1_048_576))
        #expect(configuration.folders[1].path == "/etc/kioskprint/drop")
        #expect(configuration.folders[1].role == nil && configuration.folders[1].template == nil)

        let button = try #require(configuration.buttons.first)
        #expect(button.key == "button[1]" && button.name == "take-a-number")
        #expect(button.line == LineAddress(chip: "gpiochip0", line: .offset(17)))
        #expect(button.activeLow && button.bias == .pullUp)
        #expect(button.debounce == .milliseconds(20) && button.longPressAfter == .milliseconds(1500))
        guard case .print(let action) = button.press else { Issue.record("a print action was expected"); return }
        #expect(action.template == "queue-ticket" && action.role.name == "ticket" && action.counter == "deli")
        #expect(action.counterLimit == 999)
        #expect(action.fixedData.jsonText == #"{"heading":"Deli \"counter\"","lines":["one",2,true]}"#)
        #expect(button.longPress == .reprint(try Role("ticket")))

        #expect(configuration.lights == [LightSettings(key: "light[1]", role: try Role("ticket"),
                                                       line: LineAddress(chip: "gpiochip0", line: .name("GPIO27")),
                                                       activeLow: true, checkEvery: .seconds(2))])
        #expect(configuration.roles.map(\.name).sorted() == ["receipt", "ticket"])
    }

    @Test func anEmptyFileIsTheDefaults() throws {
        let configuration = try parse("")
        #expect(configuration.folders.isEmpty && configuration.buttons.isEmpty && configuration.lights.isEmpty)
        #expect(configuration.failoverAfter == .seconds(30) && configuration.logLevel == .info)
        #expect(configuration.lookEvery == .seconds(5))
        #expect(configuration.database == nil && configuration.templateFolders == nil)
    }

    /// Found by the fuzzer: toml++ asserted (abort, exit 134) on control
    /// characters in a table header, taking `config check` (and an agent on
    /// SIGHUP) down with it.
    @Test func aControlCharacterIsRefusedAtItsLineAndColumnInsteadOfAbortingTheProcess() {
        #expect(problems("box = \"till-3\"\n[\u{1A}\u{1A}[button]]\n") == [
            "2:2: a control character (U+001A) is not allowed in a TOML file. "
                + "Remove it (an editor that shows invisible characters helps).",
        ])
        #expect(problems("box = \"a\tb\"\r\n") == [], "tab and CR LF are allowed")
        // The same assertion, with no control character: a header that names no key.
        #expect(problems("box = \"till\"\n[[[button]]\nname = \"x\"\n").first?.hasPrefix("2:3: this table header names no key") == true)
        #expect(problems("\r\n[\t\t@\t\t[\t\t@\t\t").first?.hasPrefix("2:4: this table header names no key") == true,
                "after CR LF too")
        #expect(problems("[\u{0D42}").first?.hasPrefix("1:2: this table header names no key") == true,
                "a combining mark after [ (one Character with it in Swift)")
        #expect(problems("box= [}").first?.hasPrefix("1:7: this bracket closes what was not opened with its pair") == true,
                "a list closed as a table also trips toml++'s assertion")
        // Brackets inside values and strings are not headers.
        #expect(problems("box = \"[[[x\"\ntemplates = [\n  \"/tmp\",\n  \"[[[y\",\n]\n").allSatisfy { !$0.contains("names no key") })
    }

    @Test func aSyntaxErrorNamesItsLineAndColumn() {
        let found = problems("box = \"a\"\nlog-level = = \"info\"\n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("2:") == true, "\(found)")
        #expect(found.first?.contains("not valid TOML") == true)
    }

    @Test func everyWrongKeyIsReportedAtOnceWithItsPath() {
        let found = problems("""
            log-levle = "info"
            [[folder]]
            path = "/x"
            template = "receipt"
            max-size = "10"
            [[button]]
            name = "b"
            chip = "gpiochip0"
            line = -1
            debounce = "30"
            [button.press]
            print = "ticket"
            [button.press.data]
            counter = 3
            """)
        #expect(found.contains { $0.hasPrefix("log-levle: is not a known key here. Did you mean \"log-level\"?") }, "\(found)")
        #expect(found.contains("folder[1].role: is required with template = \"receipt\": say which role's printer prints these files."))
        #expect(found.contains { $0.hasPrefix("folder[1].max-size: \"10\" has no unit") })
        #expect(found.contains { $0.hasPrefix("button[1].line: -1 is not a line offset") })
        #expect(found.contains { $0.hasPrefix("button[1].debounce: \"30\" has no unit; write it as \"30ms\"") })
        #expect(found.contains { $0.hasPrefix("button[1].press.role: is required with print") })
        #expect(found.contains { $0.hasPrefix("button[1].press.data.counter: is filled in by the agent") })
        #expect(found.count == 7, "\(found)")
    }

    @Test func wrongTypesAndValuesSayWhatWasExpected() {
        let found = problems("""
            box = 3
            log-level = "loud"
            [spooler]
            look-every = "10ms"
            [[light]]
            role = "Not a role!"
            chip = "gpiochip0"
            line = 27
            active-low = "yes"
            [[button]]
            name = "x"
            chip = "gpiochip0"
            line = 27
            [button.press]
            print = "t"
            reprint = "receipt"
            """)
        #expect(found.contains("box: expected text in quotes, found a whole number (3)."), "\(found)")
        #expect(found.contains { $0.hasPrefix("log-level: \"loud\" is not one of \"debug\", \"info\"") })
        #expect(found.contains { $0.hasPrefix("spooler.look-every: ") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("light[1].role: 'Not a role!' is not a usable role name") })
        #expect(found.contains("button[1].press.print: and reprint are both set; a press does one thing: keep one of them."))
    }

    @Test func oneLineForOneButtonOrLightAndOneTableForOneFolder() {
        let found = problems("""
            [[folder]]
            path = "/spool/pos"
            role = "receipt"
            [[folder]]
            path = "/spool/pos/"
            role = "coupon"
            [[button]]
            name = "b"
            chip = "gpiochip0"
            line = 17
            [button.press]
            reprint = "receipt"
            [[light]]
            role = "receipt"
            chip = "gpiochip0"
            line = 17
            """)
        #expect(found.contains("folder[2].path: \"/spool/pos/\" is already watched by folder[1]; one folder, one [[folder]]."), "\(found)")
        #expect(found.contains("light[1].line: line 17 of gpiochip0 is already used by button[1]; each button and light needs its own line."))
    }

    @Test func aMissingFileSaysWhereToLook() {
        #expect(throws: ConfigurationError.self) { try ConfigurationFile.load("/nonexistent/kioskprint.toml") }
        do { _ = try ConfigurationFile.load("/nonexistent/kioskprint.toml") } catch {
            #expect(error.description == "/nonexistent/kioskprint.toml: there is no such file. Give the right path with --config, or copy an example from kiosk-config/.")
        }
    }

    @Test func theFileIsFoundByOptionThenEnvironment() {
        #expect(ConfigurationFile.locate(explicit: "/a.toml", environment: ["KIOSKPRINT_CONFIG": "/b.toml"]) == "/a.toml")
        #expect(ConfigurationFile.locate(explicit: nil, environment: ["KIOSKPRINT_CONFIG": "/b.toml"]) == "/b.toml")
    }

    @Test(arguments: [("30ms", Duration.milliseconds(30)), ("1.5s", .milliseconds(1500)), ("2m", .seconds(120)), ("1h", .seconds(3600))])
    func durationsNeedAUnit(text: String, expected: Duration) throws {
        #expect(try ConfigValues.duration(text) == expected)
        #expect(ConfigValues.describe(expected) == text)
    }

    /// Found by the fuzzer: a huge number of milliseconds trapped converting to Int64.
    @Test func aDurationOrSizeTooLargeForAnySettingIsRefusedNotATrap() {
        #expect(throws: ConfigValues.Refusal.self) { try ConfigValues.duration(String(repeating: "2", count: 110) + "ms") }
        #expect(throws: ConfigValues.Refusal.self) { try ConfigValues.size(String(repeating: "9", count: 40) + "GB") }
        #expect(throws: Never.self) { try ConfigValues.duration("36500d") }
    }

    @Test func sizesAreBinary() throws {
        #expect(try ConfigValues.size("512KB") == 524_288)
        #expect(try ConfigValues.size("10MB") == 10_485_760)
        #expect(throws: ConfigValues.Refusal.self) { try ConfigValues.size("lots") }
    }

    @Test func rolesChooseTheirUnknownFateRuleAndCutStyle() throws {
        let configuration = try parse("""
            [role.receipt]
            unknown-fate = "hold"
            cut-style = "full"
            [role.bag-tag]
            unknown-fate = "reprint-marked"
            media-changes = "warn"
            """)
        #expect(configuration.roleSettings[try Role("receipt")] == RoleSettings(key: "role.receipt", unknownFate: .hold, cutStyle: .full))
        #expect(configuration.roleSettings[try Role("bag-tag")]?.unknownFate == .reprintMarked)
        #expect(configuration.roleSettings[try Role("bag-tag")]?.mediaChanges == .warn)
        #expect(configuration.roleSettings[try Role("receipt")]?.mediaChanges == nil)
        #expect(problems("""
            [role.coupon]
            unknown-fate = "reprint"
            cut-styel = "full"
            media-changes = "ignore"
            """) == [
                #"role.coupon.unknown-fate: "reprint" is not one of "reprint-marked", "hold"."#,
                #"role.coupon.media-changes: "ignore" is not one of "fail", "warn"."#,
                #"role.coupon.cut-styel: is not a known key here. Did you mean "cut-style"? Known keys: unknown-fate, cut-style, media-changes, ipp-printer, raw-clients, raw-job-gap, raw-listen, epos-devid, epos, webprnt, delivery."#,
            ])
    }

    @Test func rolesChooseHowTextReachesARawPrinter() throws {
        let configuration = try parse("""
            [role.receipt]
            delivery = "native"
            [role.kitchen]
            delivery = "raster"
            [role.coupon]
            cut-style = "full"
            """)
        #expect(configuration.roleSettings[try Role("receipt")]?.delivery == .native)
        #expect(configuration.roleSettings[try Role("kitchen")]?.delivery == .raster)
        #expect(configuration.roleSettings[try Role("coupon")]?.delivery == nil, "unset: the default, auto")
        #expect(RawDelivery.defaultDelivery == .auto)
        #expect(problems("[role.receipt]\ndelivery = \"text\"\n") == [
            #"role.receipt.delivery: "text" is not one of "raster", "native", "auto"."#,
        ])
    }

    @Test func rolePrintersAreTurnedOnPerRoleAndServedOnTheLANOnlyOverTLS() throws {
        let configuration = try parse("""
            [ipp]
            listen = "127.0.0.1:8700"
            require-token = true
            [role.receipt]
            ipp-printer = true
            [role.coupon]
            cut-style = "full"
            """)
        #expect(configuration.ippRoles == [try Role("receipt")])
        #expect(configuration.ipp.listen == ListenAddress(host: "127.0.0.1", port: 8700) && configuration.ipp.requireToken)
        #expect(!configuration.ipp.tls, "loopback is plain ipp:// unless asked")
        #expect(try parse("").ipp.listen == IPPSettings.defaultListen && !(try parse("").ipp.requireToken))
        // On the LAN without a certificate: ipps:// with the one the agent makes.
        let lan = try parse("[ipp]\nlisten = \"0.0.0.0:8631\"")
        #expect(lan.ipp.tls && lan.ipp.tlsCertificate == nil)
        #expect(try parse("[ipp]\ntls = true").ipp.tls)
        let refused = problems("""
            [ipp]
            listen = "0.0.0.0:8631"
            tls-key = "key.pem"
            tls = false
            """)
        #expect(refused.contains { $0.hasPrefix("ipp.tls-certificate: is missing") }, "\(refused)")
        #expect(refused.contains { $0.hasPrefix("ipp.tls: is false") && $0.contains("only over TLS") }, "\(refused)")
    }

    @Test func aButtonOpensTheCashDrawer() throws {
        let configuration = try parse("""
            [[button]]
            name = "no-sale"
            chip = "gpiochip0"
            line = 5
            [button.press]
            drawer = "receipt"
            """)
        #expect(configuration.buttons.first?.press == .openDrawer(try Role("receipt")))
        #expect(configuration.roles.contains(try Role("receipt")))
        let both = problems("""
            [[button]]
            name = "no-sale"
            chip = "gpiochip0"
            line = 5
            [button.press]
            drawer = "receipt"
            reprint = "receipt"
            """)
        #expect(both == ["button[1].press.reprint: and drawer are both set; a press does one thing: keep one of them."])
    }
}
