import Foundation
import KioskConfiguration
import Testing

/// `[http]`: where the API listens, who may call it from a browser, how much it reads.
@Suite struct HTTPConfigurationTests: ReadsConfiguration {
    @Test func withoutTheTableTheAPIIsOnLoopbackAndTheSocket() throws {
        let http = try read("").get().http
        #expect(http.listen == ListenAddress(host: "127.0.0.1", port: 9180))
        #expect(http.socket == nil && !http.socketOff && http.isEnabled)
        #expect(http.allowedOrigins.isEmpty && http.maxBody == 20 * 1_048_576)
    }

    @Test func everyKeyIsRead() throws {
        let http = try read("""
            [http]
            listen = "[::1]:8080"
            socket = "/run/kioskprint/api.sock"
            allowed-origins = ["https://pos.example.com", "http://localhost:3000"]
            max-body = "2MB"
            """).get().http
        #expect(http.listen == ListenAddress(host: "::1", port: 8080))
        #expect(http.listen?.description == "[::1]:8080")
        #expect(http.socket == "/run/kioskprint/api.sock")
        #expect(http.allowedOrigins == ["https://pos.example.com", "http://localhost:3000"])
        #expect(http.maxBody == 2_000_000 || http.maxBody == 2 * 1_048_576)
        let off = try read("[http]\nlisten = \"off\"\nsocket = \"off\"").get().http
        #expect(!off.isEnabled)
    }

    @Test func anAddressOtherMachinesReachIsRefusedWithTheWayOut() {
        let found = problems("[http]\nlisten = \"0.0.0.0:9180\"")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("http.listen:") == true, "\(found)")
        #expect(found.first?.contains("tls-certificate") == true && found.first?.contains("127.0.0.1") == true, "\(found)")
    }

    @Test func anotherAddressIsServedWithTLSFilesOnly() throws {
        let http = try read("""
            [http]
            listen = "0.0.0.0:9443"
            tls-certificate = "api.crt"
            tls-key = "/etc/kioskprint/api.key"
            """).get().http
        #expect(http.listen == ListenAddress(host: "0.0.0.0", port: 9443) && http.listen?.isLoopback == false)
        #expect(http.tlsCertificate == "/etc/kioskprint/api.crt" && http.tlsKey == "/etc/kioskprint/api.key")
        let half = problems("[http]\ntls-certificate = \"api.crt\"")
        #expect(half.count == 1 && half.first?.hasPrefix("http.tls-key:") == true, "\(half)")
    }

    @Test func wrongValuesAreReportedByTheirPath() {
        let found = problems("""
            [http]
            listen = "127.0.0.1"
            socket = "api.sock"
            allowed-origins = ["https://pos.example.com/till", "*"]
            max-body = "1GB"
            lisen = "x"
            """)
        #expect(found.contains { $0.hasPrefix("http.listen:") && $0.contains("HOST:PORT") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("http.socket:") && $0.contains("absolute") }, "\(found)")
        #expect(found.filter { $0.hasPrefix("http.allowed-origins:") }.count == 2, "\(found)")
        let spelled = problems("[http]\nallowed-origins = [\"HTTPS://POS.example.com:443/\"]")
        #expect(spelled.isEmpty, "an origin in capitals, with its default port and a slash, is still an origin: \(spelled)")
        #expect(found.contains { $0.hasPrefix("http.max-body:") }, "\(found)")
        #expect(found.contains { $0.contains("lisen") }, "\(found)")
    }
}
