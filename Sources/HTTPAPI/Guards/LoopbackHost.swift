import Foundation
import Hummingbird

/// On a loopback listener, answers only requests addressed to this machine
/// by name (`Host: localhost`, `127.0.0.1` or `[::1]`, or the machine's own
/// host name and its mDNS name `HOST.local`, which clients that found a role
/// printer through DNS-SD address it by; any port). A web page that rebinds
/// its own DNS name to 127.0.0.1 reaches the port from the browser, but its
/// requests carry its own name: refused here, they cannot read the status
/// page or the API with a token the browser holds.
struct LoopbackHost<Context: RequestContext>: RouterMiddleware {
    static var names: Set<String> { Set(["localhost", "127.0.0.1", "[::1]", "::1"]).union(MachineName.own) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority, Self.isLoopback(host) else {
            throw APIProblem(.misdirectedRequest, "This address serves only requests for localhost, 127.0.0.1 or [::1] "
                + "(the Host header was \(request.head.authority.map { "\"\($0.prefix(100))\"" } ?? "missing")). "
                + "Address the agent by one of those names, or use its Unix socket.")
        }
        return try await next(request, context)
    }

    /// Whether `authority` (`host` or `host:port`) names this machine.
    static func isLoopback(_ authority: String) -> Bool {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon {
            host = host[..<colon]
        }
        return names.contains(String(host))
    }
}

