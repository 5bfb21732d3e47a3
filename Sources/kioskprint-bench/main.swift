// kioskprint-bench: KioskPrint's figures, measured in this run, each beside
// the tool a person would otherwise use.
//
//   kioskprint-bench          discovery and contact against a private
//                             PrinterLab; needs root (`-- --shared-loopback`
//                             to measure on the machine's loopback instead)
//   kioskprint-bench render   template rendering to PWG raster, beside
//                             Ghostscript; no root, no lab
//   kioskprint-bench print    a receipt end to end through the spooler,
//                             beside lp through a private cupsd and a C
//                             libcups client (the floor), and the raw
//                             section below; needs root
//   kioskprint-bench raw [--receipts N]
//                             a 30-item receipt through the spooler to a
//                             raw-TCP ESC/POS simulator beside the 80 mm IPP
//                             printer, N each (default 40): time, bytes and
//                             the agent's CPU per receipt; needs root
//   kioskprint-bench agent [--jobs N]
//                             `kioskprint run` as a child: start to READY=1
//                             (beside cupsd), idle footprint, and a soak of
//                             N jobs (default 10000) through its folders and
//                             button; needs root (the lab)
//   kioskprint-bench cpu      the agent's CPU per 30-item receipt through a
//                             watched folder (100 one at a time, 100 at
//                             once) beside cupsd with its filters, and its
//                             idle memory before and after; needs root
//   kioskprint-bench moved [--rounds N]
//                             a saved printer found again at a new address
//                             by its DNS-SD UUID: queued to completed there,
//                             beside the same receipt printed in place, N
//                             rounds (default 10); needs root (the lab)
//   kioskprint-bench retention [--jobs N]
//                             N jobs (default 100000) through the store as
//                             the spooler takes them, with the agent's purge
//                             and without: database and spool folder sizes
//                             at 0, N/10, N/2 and N; no root
//   kioskprint-bench api [--jobs N]
//                             the HTTP API: POST /v1/jobs acceptance beside
//                             ipptool Print-Job to cupsd, 50 event streams,
//                             idle memory with the API on and off; root
//   kioskprint-bench hostile  issue 14's hostile files dropped one after
//                             another into the agent's folders, a good
//                             receipt after each: what became of each, and
//                             the agent's peak memory beside a calm run;
//                             needs root (the lab)
//   kioskprint-bench startup-order [--out FILE]
//                             the functions the agent runs at start, idle
//                             and for one job of each kind, profiled with
//                             callgrind: scripts/kioskprint.order, the link
//                             order of scripts/build-release.sh; needs root
//
// `render-one` and `render-idle` are the render bench's child processes,
// run one per case so that each case's peak memory is its own.
import Foundation

/// Progress goes to standard error, and only on a terminal, so that standard
/// output is the table alone.
func progress(_ message: String) {
    guard isatty(STDERR_FILENO) == 1 else { return }
    FileHandle.standardError.write(Data("... \(message)\n".utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "render":
    RenderBench.run()
case "render-one":
    RenderOne.run(Array(arguments.dropFirst()))
case "render-idle":
    RenderOne.idle()
case "print":
    await PrintBench.run()
case "raw":
    await RawBench.run(Array(arguments.dropFirst()))
case "agent":
    await AgentBench.run(Array(arguments.dropFirst()))
case "cpu":
    await CPUBench.run(Array(arguments.dropFirst()))
case "moved":
    await MovedBench.run(Array(arguments.dropFirst()))
case "retention":
    await RetentionBench.run(Array(arguments.dropFirst()))
case "api":
    await APIBench.run(Array(arguments.dropFirst()))
case "hostile":
    await HostileBench.run(Array(arguments.dropFirst()))
case "startup-order":
    await StartupOrder.run(Array(arguments.dropFirst()))
default:
    await DiscoveryBench.run()
}
