import BenchSupport
import Foundation
import IPP
import Simulator

/// Figure 3: one Get-Printer-Attributes round trip to the receipt printer on
/// loopback, as `PrinterContact.contact` makes it (a new connection each
/// time, reply mapped to capabilities), over ipp:// and ipps://, beside the
/// same request made by `ipptool get-printer-attributes.test` from a shell.
struct ContactLatency: Sendable {
    /// One scheme's figures.
    struct Scheme: Sendable {
        var uri: String
        var kioskPrint: [Duration] = []
        var kioskFailures = 0
        var ipptool: [Duration] = []
        var ipptoolFailures = 0
        /// Runs the printer answered but ipptool still exited non-zero (a failed EXPECT).
        var ipptoolExpectFailures = 0
    }

    var schemes: [Scheme]
    var calls: Int
    var toolRuns: Int

    static func measure(receipt: RunningPrinter, calls: Int, toolRuns: Int, folder: URL) async throws -> ContactLatency {
        var schemes: [Scheme] = []
        for uri in [receipt.uri, receipt.secureURI] {
            var scheme = Scheme(uri: uri)
            for _ in 0..<calls {
                let started = ContinuousClock.now
                do {
                    _ = try await PrinterContact.contact(uri: uri, timeout: .seconds(5))
                    scheme.kioskPrint.append(ContinuousClock.now - started)
                } catch {
                    scheme.kioskFailures += 1
                }
            }
            // The test file asks for requested-attributes all,media-col-database, as PrinterContact does.
            for _ in 0..<toolRuns {
                let run = try await TimedRun.run("ipptool", ["-T", "5", uri, "get-printer-attributes.test"],
                                                 environment: [:], folder: folder)
                // The stock test also EXPECTs attributes a printer may lack; ipptool
                // then exits 1 although the printer answered. The answer decides.
                if run.succeeded || run.output.contains("successful-ok") {
                    scheme.ipptool.append(run.elapsed)
                    if !run.succeeded { scheme.ipptoolExpectFailures += 1 }
                } else {
                    scheme.ipptoolFailures += 1
                }
            }
            schemes.append(scheme)
        }
        return ContactLatency(schemes: schemes, calls: calls, toolRuns: toolRuns)
    }

    func addRows(to table: inout BenchTable) {
        table.section("3. Contact latency to the receipt printer on loopback: "
                      + "\(calls) KioskPrint calls, \(toolRuns) ipptool runs per scheme (ms)")
        let process = table.footnote(
            "ipptool's time runs from spawn to exit, so it includes process start-up and libcups initialisation: "
                + "what a shell script checking a printer pays. Both sides send the same request "
                + "(requested-attributes all,media-col-database) on a new connection each time; "
                + "for ipps:// that is a new TLS handshake each time too."
                + (schemes.contains { $0.ipptoolExpectFailures > 0 }
                    ? " ipptool exited 1 on runs where the printer answered successful-ok: the stock test also "
                        + "EXPECTs media-col-default, which the simulated receipt printer does not report; those "
                        + "runs are counted, since the request itself succeeded." : ""))
        for scheme in schemes {
            let name = scheme.uri.hasPrefix("ipps:") ? "ipps://" : "ipp://"
            let median = Sample(scheme.kioskPrint).median
            let verdict = median.map { "target median < 20 ms: \($0 < .milliseconds(20) ? "met" : "missed")" } ?? ""
            table.add("contact \(name)", Sample(scheme.kioskPrint).spread(missing: scheme.kioskFailures),
                      "ipptool -T 5 \(name) get-printer-attributes.test",
                      Sample(scheme.ipptool).spread(missing: scheme.ipptoolFailures),
                      note: "\(verdict) \(process)")
        }
    }
}
