import KioskConfiguration
import PrintModel
import Testing

/// `epos` and `epos-devid` in `[role.NAME]`, and `[epos]`: a role served as
/// an Epson ePOS-Print device, and who may print there; `webprnt` and
/// `[webprnt]`, the same for Star WebPRNT.
@Suite struct EposConfigurationTests: ReadsConfiguration {
    @Test func aRoleAnswersToItsDevidOrItsName() throws {
        let configuration = try read("""
            [role.receipt]
            epos = true
            epos-devid = "local_printer"
            [role.kitchen]
            epos = true
            """).get()
        #expect(configuration.eposRoles == ["local_printer": try Role("receipt"), "kitchen": try Role("kitchen")])
        #expect(configuration.epos == PosClientSettings(), "on loopback nothing more is needed")
    }

    @Test func theLANNeedsClientsAndOriginsAreWebOrigins() throws {
        #expect(problems("[ipp]\nlisten = \"0.0.0.0:8631\"\n[role.receipt]\nepos = true\n").contains { $0.hasPrefix("epos.clients: is missing") })
        let settings = try read("""
            [ipp]
            listen = "0.0.0.0:8631"
            [epos]
            clients = ["192.168.1.0/24"]
            origins = ["https://pos.example.com/"]
            require-token = true
            [role.receipt]
            epos = true
            """).get().epos
        #expect(settings.origins == ["https://pos.example.com"])
        #expect(settings.requireToken)
        let listen = ListenAddress(host: "0.0.0.0", port: 8631)
        #expect(settings.admits([192, 168, 1, 5], listeningOn: listen) && !settings.admits([10, 0, 0, 5], listeningOn: listen))
    }

    @Test func badValuesAreReportedByTheirKey() {
        let found = problems("""
            [epos]
            origins = ["pos.example.com", "https://pos.example.com/checkout"]
            [role.receipt]
            epos = true
            epos-devid = "local_printer"
            [role.coupon]
            epos = true
            epos-devid = "local_printer"
            [role.label]
            epos-devid = "labels"
            """)
        #expect(found.filter { $0.hasPrefix("epos.origins: ") }.count == 2, "\(found)")
        #expect(found.contains { $0.hasPrefix("role.receipt.epos-devid: \"local_printer\" is already the devid of the role coupon") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("role.label.epos-devid: has no epos = true beside it") }, "\(found)")
    }

    @Test func webprntRolesAndTheirClients() throws {
        let configuration = try read("""
            [ipp]
            listen = "0.0.0.0:8631"
            [webprnt]
            clients = ["10.1.0.0/16"]
            origins = ["https://pos.example.com"]
            [role.receipt]
            webprnt = true
            [role.kitchen]
            epos = true
            [epos]
            clients = ["10.1.0.0/16"]
            """).get()
        #expect(configuration.webprntRoles == [try Role("receipt")])
        #expect(configuration.servesRolePrinters)
        let listen = ListenAddress(host: "0.0.0.0", port: 8631)
        #expect(configuration.webprnt.admits([10, 1, 2, 3], listeningOn: listen) && !configuration.webprnt.admits([10, 2, 0, 1], listeningOn: listen))
        let missing = problems("[ipp]\nlisten = \"0.0.0.0:8631\"\n[role.receipt]\nwebprnt = true\n")
        #expect(missing.contains { $0.hasPrefix("webprnt.clients: is missing") && $0.contains("Star's clients send no password") }, "\(missing)")
        #expect(problems("[webprnt]\norigins = [\"pos.example.com\"]\n").contains { $0.hasPrefix("webprnt.origins: ") })
    }
}
