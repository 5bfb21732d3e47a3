import Foundation
import Simulator
import Testing

/// The status page a technician opens at the kiosk, in a real browser:
/// headless Chromium from Debian, at a phone's size, against a running agent
/// with a simulated printer. DOM checks on what it shows, and a screenshot.
extension AgentEndToEnd {
    @Suite(.timeLimit(.minutes(3))) struct StatusPageTests {
        @Test func aPhoneShowsTheRolesPrintersAndJobsAndOnlyAnAdminGetsButtons() async throws {
            let kiosk = try await APIKiosk.start("Status Receipt", token: "technician", scope: "admin")
            defer { kiosk.printer.stop() }
            let (printer, site, api, agent) = (kiosk.printer, kiosk.site, kiosk.api, kiosk.agent)
            let admin = try #require(api.token)
            let reader = try await site.token("screen", scope: "read")

            let posted = try await api.request("POST", "/v1/jobs", headers: ["Content-Type": "application/json"],
                                               body: #"{"template":"receipt","role":"receipt","name":"Sale 77","data":"# + (try sampleData("receipt")) + "}")
            let id = try #require(posted.object()["id"] as? Int)
            try await pollUntil("job \(id) to complete", within: .seconds(30)) {
                try await api.request("GET", "/v1/jobs/\(id)").object()["state"] as? String == "completed"
            }
            let host = api.base.replacingOccurrences(of: "http://", with: "")

            // The browser gives the token as HTTP Basic's password, as a person would at its prompt.
            let chromium = HeadlessChromium(profile: site.folder + "/chromium-profile")
            let (dom, errors) = try await chromium.dom(of: "http://tech:\(admin)@\(host)/")
            #expect(dom.contains("data-role=\"receipt\""), "\(dom.prefix(2000))\n\(errors.suffix(1000))")
            #expect(dom.contains(printer.name) && dom.contains("idle"))
            #expect(dom.contains("data-job=\"\(id)\"") && dom.contains("Sale 77") && dom.contains("completed"))
            #expect(dom.contains("/ui/jobs/\(id)/preview.png"))
            #expect(dom.contains("action=\"/ui/roles/receipt/test-page\""), "an admin gets the test-page button")

            let readOnly = try await chromium.dom(of: "http://screen:\(reader)@\(host)/").dom
            #expect(readOnly.contains("data-job=\"\(id)\""))
            #expect(!readOnly.contains("<form"), "a read token sees the page without buttons")

            // The page fits a phone: a screenshot at 390 x 844, and the job's preview is a real PNG.
            let shot = try await chromium.screenshot(of: "http://tech:\(admin)@\(host)/", to: site.folder + "/status.png")
            #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]) && shot.count > 10_000, "\(shot.count) bytes")
            let previewFile = site.folder + "/job-preview.png"
            let preview = try await api.request("GET", "/ui/jobs/\(id)/preview.png", saveTo: previewFile)
            #expect(preview.status == 200 && preview.headers["content-type"] == "image/png")

            // The test-page button, as the browser's form posts it: back to the page, and a job queued.
            let pressed = try await api.request("POST", "/ui/roles/receipt/test-page",
                                                headers: ["Origin": api.base, "Content-Type": "application/x-www-form-urlencoded"])
            let location = try #require(pressed.headers["location"], "\(pressed.headers)")
            #expect(pressed.status == 303 && location.hasPrefix("/?done="), "\(pressed.headers)")
            #expect(try await api.request("GET", location).body.contains("Test page queued as job"), "the notice the button left")
            try await pollUntil("the test page to print", within: .seconds(30)) { try printer.receivedJobs().count == 2 }

            // Without a token a browser is asked for one; a read token cannot press buttons.
            let anonymous = try await api.request("GET", "/", withToken: false)
            #expect(anonymous.status == 401 && anonymous.headers["www-authenticate"]?.hasPrefix("Basic") == true)
            var screen = api
            screen.token = reader
            #expect(try await screen.request("POST", "/ui/jobs/\(id)/retry").status == 403)
            await site.stop(agent)
        }
    }
}
