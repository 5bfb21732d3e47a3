import Foundation
@testable import HTTPAPI
import Hummingbird
import Testing

/// The API's guards as pure functions: the one spelling of a path every check
/// keys on, origins compared as browsers mean them, loopback host names, and
/// the status page's notices.
@Suite struct GuardTests {
    @Test func onlyTheCanonicalSpellingOfAPathIsServed() {
        for path in ["/", "/v1/jobs", "/v1/jobs/12/cancel", "/ui/jobs/3/preview.png", "/v1/templates/%2Fetc"] {
            #expect(CanonicalPath<BasicRequestContext>.isCanonical(path), "\(path)")
        }
        for path in ["", "//v1/jobs", "/v1/jobs/", "/v1//jobs", "/v1/./jobs", "/v1/../ui/x", "/.", "//", "v1/jobs"] {
            #expect(!CanonicalPath<BasicRequestContext>.isCanonical(path), "\(path)")
        }
        #expect(CanonicalPath<BasicRequestContext>.canonical("//v1/./jobs/") == "/v1/jobs")
        #expect(CanonicalPath<BasicRequestContext>.canonical("/v1/../etc") == nil)
    }

    @Test func originsAreComparedInAnyCaseWithOrWithoutTheirDefaultPort() {
        typealias Origins = CrossOrigin<BasicRequestContext>
        #expect(Origins.normalized("HTTPS://POS.Example.com:443/") == "https://pos.example.com")
        #expect(Origins.normalized("http://pos.example.com:80") == "http://pos.example.com")
        #expect(Origins.normalized("http://pos.example.com:443") == "http://pos.example.com:443")
        #expect(Origins.normalized("https://pos.example.com:8443") == "https://pos.example.com:8443")
        #expect(Origins.normalized("null") == "null")
    }

    @Test func loopbackHostsAreThisMachinesNamesOnly() {
        typealias Host = LoopbackHost<BasicRequestContext>
        for host in ["localhost", "LOCALHOST:9180", "127.0.0.1", "127.0.0.1:9180", "[::1]", "[::1]:9180"] {
            #expect(Host.isLoopback(host), "\(host)")
        }
        for host in ["evil.example", "evil.example:9180", "localhost.evil.example", "127.0.0.1.nip.io:9180", "[::2]:9180", ""] {
            #expect(!Host.isLoopback(host), "\(host)")
        }
        // The box's own names, which a client that found a role printer through DNS-SD uses.
        let own = ProcessInfo.processInfo.environment["HOSTNAME"] ?? (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))
        if let own = own?.trimmingCharacters(in: .whitespacesAndNewlines), !own.isEmpty, own != "localhost" {
            #expect(Host.isLoopback("\(own).local:8631") && Host.isLoopback(own.uppercased()), "\(own)")
            #expect(!Host.isLoopback("\(own).local.evil.example"))
        }
    }

    @Test func theStatusPageShowsOnlyNoticesTheAgentWrote() {
        let notices = StatusNotices()
        let id = notices.add("Job 4 is canceled.")
        #expect(notices.text(for: id) == "Job 4 is canceled.")
        #expect(notices.text(for: "Call 555-0100 for a refund") == nil)
        for index in 1...StatusNotices.capacity { _ = notices.add("notice \(index)") }
        #expect(notices.text(for: id) == nil, "the oldest notices are let go")
    }
}
