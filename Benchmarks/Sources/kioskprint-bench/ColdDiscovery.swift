import BenchSupport
import Foundation
import Setup
import Simulator

/// Figure 2: a cold discover of the three running printers, end to end, as
/// `kioskprint printers discover` does it: a fresh `PrinterFinder().find`
/// that returns once Avahi has settled and every printer has answered over
/// IPP. Beside it, the same question asked of `avahi-browse --terminate`
/// (resolve only) and of `ippfind`. The three are interleaved run by run so
/// that any drift in the machine's load falls on all of them alike.
struct ColdDiscovery: Sendable {
    var finder: [Duration] = []
    var finderIncomplete = 0
    /// The most printers a find returned beyond the lab's three (other labs on loopback).
    var extraPrinters = 0
    var browse: [Duration] = []
    var browseIncomplete = 0
    /// ippfind: until it had printed a URI for each of the three.
    var ippfindListed: [Duration] = []
    /// ippfind: until it exited.
    var ippfindTotal: [Duration] = []
    var ippfindIncomplete = 0

    /// ippfind browses for this long, then exits (`-T`).
    static let ippfindSeconds = 3

    static func measure(lab: PrinterLab, printers: [RunningPrinter], runs: Int, folder: URL) async throws
        -> ColdDiscovery {
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": lab.busAddress]
        let ports = printers.map(\.port)
        var result = ColdDiscovery()
        for run in 0..<runs {
            let started = ContinuousClock.now
            let snapshot = try await PrinterFinder().find(timeout: .seconds(10))
            let elapsed = ContinuousClock.now - started
            let contacted = Set(snapshot.printers.filter { $0.capabilities != nil }.map(\.discovered.port))
            if snapshot.complete && ports.allSatisfy(contacted.contains) {
                result.finder.append(elapsed)
            } else {
                result.finderIncomplete += 1
            }
            result.extraPrinters = max(result.extraPrinters, snapshot.foundCount - ports.count)

            let browse = try await TimedRun.run("avahi-browse", ["--resolve", "--parsable", "--terminate", "_ipp._tcp"],
                                                environment: environment, folder: folder)
            let resolvedPorts = Set(browse.output.split(separator: "\n").compactMap { line -> Int? in
                let fields = line.split(separator: ";", omittingEmptySubsequences: false)
                return fields.count > 8 && fields[0] == "=" ? Int(fields[8]) : nil
            })
            if browse.succeeded && ports.allSatisfy(resolvedPorts.contains) {
                result.browse.append(browse.elapsed)
            } else {
                result.browseIncomplete += 1
            }

            // ippfind writes to a file fully buffered, so nothing would be seen
            // before it exits; stdbuf -oL makes it write each URI as it finds it.
            let ippfind = try FollowedTool.start(
                "stdbuf", ["-oL", "ippfind", "-T", "\(ippfindSeconds)", "_ipp._tcp"], environment: environment,
                logFile: folder.appendingPathComponent("ippfind-\(run).log"))
            _ = await pollUntil(within: .seconds(ippfindSeconds + 5)) { ippfind.isFinished }
            await ippfind.stop()
            let listed = ports.map { port in ippfind.firstLine(since: ippfind.started) { $0.contains(":\(port)/") }?.at }
            if let exited = ippfind.exited, listed.allSatisfy({ $0 != nil }) {
                result.ippfindListed.append(listed.compactMap { $0 }.max()! - ippfind.started)
                result.ippfindTotal.append(exited - ippfind.started)
            } else {
                result.ippfindIncomplete += 1
            }
        }
        return result
    }

    /// `idle`: the first browse on the fresh lab's Avahi, from figure 1's start.
    func addRows(to table: inout BenchTable, idle: (kioskPrint: Duration?, avahiBrowse: Duration?)) {
        let runs = finder.count + finderIncomplete
        table.section("2. Cold discover of the 3 printers, end to end, \(runs) runs (ms)")
        let querier = table.footnote(
            "Avahi sends 'all for now' one second after the first browse of a type on the daemon began, and at "
                + "once when another browse of that type has been running longer (it shares the query). The runs "
                + "below come after figure 1's long browses (and the lab keeps its own avahi-browse --all running), "
                + "so the daemon answers at once, as on a kiosk where KioskPrint or cups-browsed keeps browsing. The "
                + "first browse of a type on an idle daemon waits that second, whatever the client: measured once, "
                + "at the start, with no printers yet.")
        table.add("find() settled, idle Avahi, no printers", Millis.text(idle.kioskPrint),
                  "avahi-browse -rpt _ipp._tcp, same moment", Millis.text(idle.avahiBrowse),
                  note: "first browse of the daemon: Avahi's 1 s wait \(querier)")
        let scope = table.footnote(
            "Each run starts a new browse: a new PrinterFinder in this process, a new avahi-browse or ippfind "
                + "process. KioskPrint browses _ipp and _ipps and contacts each printer over IPP before it calls the "
                + "list complete; avahi-browse and ippfind only browse and resolve _ipp."
                + (extraPrinters > 0 ? " Up to \(extraPrinters) printer(s) of other labs on loopback were also found and contacted." : ""))
        let finderCell = Sample(finder).medianAndMax(missing: finderIncomplete)
        table.add("find(), complete + 3 contacted", finderCell,
                  "avahi-browse -rpt _ipp._tcp", Sample(browse).medianAndMax(missing: browseIncomplete),
                  note: "resolve only, no IPP; exits at Avahi's all-for-now \(scope)")
        table.add("find(), same runs", finderCell,
                  "ippfind -T \(Self.ippfindSeconds) _ipp._tcp: 3 URIs out",
                  Sample(ippfindListed).medianAndMax(missing: ippfindIncomplete),
                  note: "read live through stdbuf -oL; no IPP")
        table.add("", "", "ippfind -T \(Self.ippfindSeconds): until exit",
                  Sample(ippfindTotal).medianAndMax(missing: ippfindIncomplete),
                  note: "what a script waiting for ippfind pays: it lists, then waits out -T")
    }
}
