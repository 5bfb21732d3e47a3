import KioskConfiguration
import Testing

/// `raw-listen`, `raw-clients` and `raw-job-gap` in `[role.NAME]`: a role
/// served as a till's port 9100, and who may print there.
@Suite struct RawListenConfigurationTests: ReadsConfiguration {
    @Test func aLoopbackListenerNeedsNoClientList() throws {
        let roles = try read("[role.receipt]\nraw-listen = \"127.0.0.1:9100\"\n").get().rawRoles
        #expect(roles.count == 1)
        let raw = try #require(roles.first?.value)
        #expect(raw.listen == ListenAddress(host: "127.0.0.1", port: 9100))
        #expect(raw.jobGap == RawListenSettings.defaultJobGap)
        #expect(raw.admits([10, 0, 0, 1]), "on loopback only this machine connects: the list is not consulted")
    }

    @Test func theLANNeedsAnAllowListAndItIsHeld() throws {
        #expect(problems("[role.receipt]\nraw-listen = \"0.0.0.0:9100\"\n") == [
            #"role.receipt.raw-listen: "0.0.0.0" can be reached from other machines, and a raw printer asks for no password: list who may print there in raw-clients (the tills' network, e.g. ["192.168.1.0/24"]), or listen on 127.0.0.1."#,
        ])
        let raw = try #require(try read("""
            [role.receipt]
            raw-listen = "0.0.0.0:9100"
            raw-clients = ["192.168.1.0/24", "10.0.0.7", "fd00::/8"]
            raw-job-gap = "500ms"
            """).get().rawRoles.first?.value)
        #expect(raw.jobGap == .milliseconds(500))
        #expect(raw.admits([192, 168, 1, 77]))
        #expect(!raw.admits([192, 168, 2, 77]), "another subnet")
        #expect(raw.admits([10, 0, 0, 7]) && !raw.admits([10, 0, 0, 8]), "one address is a /32")
        #expect(raw.admits([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 168, 1, 9]), "an IPv4 client on a dual-stack socket")
        #expect(raw.admits([0xFD] + Array(repeating: 0, count: 15)) && !raw.admits([0xFE] + Array(repeating: 0, count: 15)))
    }

    @Test func badValuesAreReportedByTheirKey() {
        let found = problems("""
            [http]
            listen = "127.0.0.1:9100"
            [role.receipt]
            raw-listen = "127.0.0.1:9100"
            raw-clients = ["192.168.1.0/33", "till-3"]
            raw-job-gap = "10ms"
            [role.label]
            raw-clients = ["10.0.0.0/8"]
            """)
        #expect(found.contains { $0.hasPrefix(#"role.receipt.raw-clients: "33" in "192.168.1.0/33" is not a prefix length"#) })
        #expect(found.contains { $0.hasPrefix(#"role.receipt.raw-clients: "till-3" is not an address or a network"#) })
        #expect(found.contains { $0.hasPrefix("role.receipt.raw-job-gap: ") })
        #expect(found.contains { $0.hasPrefix("role.label.raw-clients: has no raw-listen beside it") })
        #expect(found.contains { $0 == "role.receipt.raw-listen: port 9100 is already taken by [http] listen; give each raw printer a port of its own." })
    }
}
