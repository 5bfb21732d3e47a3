import Foundation
import Templates
import PrintModel
import Store

/// `GET /`: the page a technician opens at the kiosk, on a phone as often
/// as not: every role with its printers, their state and paper, the queue,
/// and the last jobs with their previews; with an admin token, buttons for
/// a test page, retry and cancel. Rendered here as plain HTML (no
/// front-end framework, no script): it must load on anything, and it
/// refreshes itself every 10 s.
struct StatusPage: Sendable {
    let store: KioskStore
    let box: String

    /// How many of the newest jobs the page lists.
    static let recentJobs = 12

    func html(admin: Bool, notice: String?) async throws -> String {
        let assignments = try await store.assignments()
        let roles = Dictionary(grouping: assignments, by: \.role).sorted { $0.key.name < $1.key.name }
        let queued = try await store.jobCounts(.unfinished)
        let jobs = try await store.jobs(.all, limit: Self.recentJobs)
        var page = Self.head(title: "KioskPrint – \(box)")
        page += "<header><h1>\(escape(box))</h1><p>KioskPrint · \(Self.now())</p></header>\n"
        if let notice { page += "<p class=\"notice\" role=\"status\">\(escape(notice))</p>\n" }
        page += "<section id=\"roles\"><h2>Printers</h2>\n"
        if roles.isEmpty {
            page += "<p class=\"empty\">No printer holds a role yet. Pick one with <code>kioskprint printers pick --role receipt</code>.</p>\n"
        }
        for (role, held) in roles {
            page += "<article class=\"role\" data-role=\"\(escape(role.name))\"><h3>\(escape(role.name))"
            page += " <span class=\"queue\">\(queued[role.name] ?? 0) queued</span></h3>\n<ul>\n"
            for assignment in held.sorted(by: { $0.position < $1.position }) {
                page += printerItem(assignment)
            }
            page += "</ul>\n"
            if admin {
                page += form("/ui/roles/\(role.name)/test-page", "Print a test page", style: "secondary")
            }
            page += "</article>\n"
        }
        page += "</section>\n<section id=\"jobs\"><h2>Last jobs</h2>\n"
        if jobs.isEmpty { page += "<p class=\"empty\">No jobs yet.</p>\n" }
        for job in jobs { page += jobItem(job, admin: admin) }
        page += "</section>\n</body>\n</html>\n"
        return page
    }

    private func printerItem(_ assignment: RoleAssignment) -> String {
        let capabilities = assignment.printer.capabilities
        let attention = capabilities.attentionReasons.map(\.keyword)
        let warnings = capabilities.stateReasons.filter(\.isWarning).map(\.keyword)
        let health = !attention.isEmpty ? "trouble" : (warnings.isEmpty ? "ok" : "warning")
        var item = "<li class=\"printer \(health)\" data-state=\"\(capabilities.state.rawValue)\">"
        item += "<strong>\(escape(assignment.printer.name))</strong> <span class=\"rank\">\(assignment.rank)</span><br>"
        item += "<span class=\"state\">\(capabilities.state.rawValue)</span>"
        if !(attention + warnings).isEmpty { item += " · <span class=\"reasons\">\(escape((attention + warnings).joined(separator: ", ")))</span>" }
        if warnings.contains(where: { $0 == "media-low" || $0 == "media-near-end" }) { item += " · <span class=\"paper-low\">paper low</span>" }
        item += "<br><span class=\"media\">\(escape(capabilities.readyMedia.isEmpty ? "no paper reported" : capabilities.readyMedia.joined(separator: ", ")))</span>"
        item += "<br><small>\(escape(assignment.printer.uri)) · seen \(Self.format(assignment.printer.contactedAt))</small></li>\n"
        return item
    }

    private func jobItem(_ job: PrintJob, admin: Bool) -> String {
        var item = "<article class=\"job \(job.state.rawValue)\" data-job=\"\(job.id.rawValue)\">"
        if case .template = job.content {
            item += "<img class=\"preview\" src=\"/ui/jobs/\(job.id.rawValue)/preview.png\" alt=\"preview of job \(job.id.rawValue)\" loading=\"lazy\">"
        }
        item += "<div><strong>#\(job.id.rawValue) \(escape(job.name))</strong><br>"
        item += "<span class=\"state\">\(job.state.rawValue)</span> · \(escape(job.role.name))"
        if let printer = job.printer { item += " · \(escape(printer.name))" }
        item += "<br><small>\(Self.format(job.createdAt))</small>"
        if let error = job.lastError, job.state != .completed { item += "<p class=\"error\">\(escape(error))</p>" }
        if admin {
            if [.failed, .aborted, .canceled, .held].contains(job.state) {
                item += form("/ui/jobs/\(job.id.rawValue)/retry", "Retry", style: "primary")
            }
            if !job.state.isTerminal || job.state == .held {
                item += form("/ui/jobs/\(job.id.rawValue)/cancel", "Cancel", style: "danger")
            }
        }
        item += "</div></article>\n"
        return item
    }

    private func form(_ action: String, _ label: String, style: String) -> String {
        "<form method=\"post\" action=\"\(escape(action))\"><button class=\"\(style)\" type=\"submit\">\(escape(label))</button></form>"
    }

    private static func head(title: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="refresh" content="10">
        <title>\(escape(title))</title>
        <style>
        body{font:16px/1.4 system-ui,sans-serif;margin:0 auto;max-width:48rem;padding:.75rem;color:#111;background:#f6f6f4}
        header h1{margin:.2rem 0;font-size:1.4rem} header p{margin:0;color:#555}
        h2{font-size:1.15rem;margin:1.2rem 0 .5rem} h3{margin:.2rem 0;font-size:1.05rem}
        .role,.job{background:#fff;border-radius:.6rem;padding:.7rem;margin:.5rem 0;box-shadow:0 1px 2px #0002}
        .role ul{list-style:none;padding:0;margin:.3rem 0}
        .printer{padding:.45rem .6rem;margin:.3rem 0;border-left:.35rem solid #2a7;border-radius:.3rem;background:#f3faf6;overflow-wrap:anywhere}
        .printer.warning{border-color:#d90;background:#fdf7e8} .printer.trouble{border-color:#c22;background:#fdeeee}
        .queue{font-weight:normal;color:#555;font-size:.9rem} .paper-low{color:#a60;font-weight:bold}
        .job{display:flex;gap:.7rem;align-items:flex-start;overflow-wrap:anywhere}
        .job .preview{width:5.5rem;max-height:9rem;object-fit:contain;object-position:top;border:1px solid #ddd;background:#fff}
        .job.failed .state,.job.aborted .state{color:#c22;font-weight:bold} .job.completed .state{color:#2a7}
        .error{color:#a22;margin:.3rem 0;font-size:.9rem}
        form{display:inline-block;margin:.4rem .4rem 0 0}
        button{font:inherit;padding:.55rem 1rem;border-radius:.4rem;border:1px solid #888;background:#fff;min-height:2.75rem}
        button.primary{background:#1a5fb4;color:#fff;border-color:#1a5fb4} button.danger{color:#a22;border-color:#a22}
        .notice{background:#e8f0fe;padding:.6rem;border-radius:.4rem}
        .empty{color:#555} code{font-size:.9rem}
        </style>
        </head>
        <body>

        """
    }

    private static func now() -> String { format(Date()) }

    private static func format(_ date: Date) -> String {
        date.formatted(.dateTime.year().month(.twoDigits).day(.twoDigits).hour(.twoDigits(amPM: .omitted)).minute(.twoDigits).second(.twoDigits))
    }
}

/// Text made safe to put in HTML, in element content and quoted attributes alike.
func escape(_ text: String) -> String { MarkupEscaping.text(text) }
