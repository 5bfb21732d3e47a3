import BenchSupport
import Foundation
import Simulator

/// Sections 1 and 2: the agent started `starts` times with the site's
/// configuration, each time from spawn to READY=1 and from SIGTERM to exit;
/// on the last start it is left idle for `idleWait` and its footprint read.
struct AgentStartup: Sendable {
    var toReady: [Duration]
    var toExit: [Duration]
    /// Exit statuses other than 0, one per start that had one.
    var badExits: [Int32]
    /// The READY datagram of the last start.
    var readyMessage: String
    /// The last start, `idleWait` after READY=1.
    var idle = IdleReading.none
    var idleWait: Duration

    static func measure(site: AgentSite, starts: Int, idleWait: Duration) async throws -> AgentStartup {
        let notify = try NotifySocket(receiveTimeout: .seconds(1))
        let log = site.folder.appendingPathComponent("starts.log").path
        var result = AgentStartup(toReady: [], toExit: [], badExits: [], readyMessage: "", idleWait: idleWait)
        for index in 1...starts {
            progress("start \(index) of \(starts)" + (index == starts ? ", then idle for \(idleWait)" : ""))
            let run = try await offloaded { try site.start(notify: notify, log: log) }
            result.toReady.append(run.toReady)
            result.readyMessage = run.message
            if index == starts {
                do {
                    result.idle = try await IdleReading.after(idleWait, pid: run.agent.pid)
                } catch {
                    run.agent.stop()
                    throw error
                }
            }
            let stopped = await (try? offloaded { site.stop(run.agent) }) ?? (.zero, -1)
            result.toExit.append(stopped.elapsed)
            if stopped.status != 0 { result.badExits.append(stopped.status) }
        }
        return result
    }
}

/// Another build of kioskprint (`--compare-with PATH`), started once on the
/// same site and read after the same idle wait: what the release build's
/// link order and flags are worth, measured beside it.
struct ComparedBuild: Sendable {
    var path: String
    var idle: IdleReading

    static func measure(site: AgentSite, binary: String, idleWait: Duration) async throws -> ComparedBuild {
        let notify = try NotifySocket(receiveTimeout: .seconds(1))
        let log = site.folder.appendingPathComponent("compared.log").path
        let run = try await offloaded { try site.start(notify: notify, log: log, binary: binary) }
        defer { _ = site.stop(run.agent) }
        return ComparedBuild(path: binary, idle: try await IdleReading.after(idleWait, pid: run.agent.pid))
    }
}

/// A process left idle for a while, then read: what it holds (status, fds,
/// mappings) and the CPU time it used while it waited.
struct IdleReading: Sendable {
    var footprint: AgentFootprint
    var mapped: MappedMemory
    /// CPU time used during the wait, ms.
    var cpuMilliseconds: Int

    static let none = IdleReading(footprint: AgentFootprint(rssKiB: 0, peakKiB: 0, anonKiB: 0, threads: 0, fds: 0, fdKinds: [:]),
                                  mapped: MappedMemory(shares: []), cpuMilliseconds: 0)

    /// Waits `wait`, then reads `pid`.
    static func after(_ wait: Duration, pid: pid_t) async throws -> IdleReading {
        let cpuAtStart = AgentFootprint.cpuMilliseconds(pid: pid)
        try await Task.sleep(for: wait)
        let footprint = try AgentFootprint.read(pid: pid)
        return IdleReading(footprint: footprint, mapped: try MappedMemory.read(pid: pid),
                           cpuMilliseconds: footprint.cpuMilliseconds - cpuAtStart)
    }
}

/// The alternative's start: the private cupsd of the print bench
/// (`cupsd -f`, every path private, no queues), from the call that starts it
/// to its port accepting connections; on the last start it is left idle and
/// its footprint read.
struct CupsStartup: Sendable {
    var toAccepting: [Duration]
    var idle: IdleReading?
    var version: String

    static func measure(starts: Int, idleWait: Duration, folder: URL) async -> Result<CupsStartup, BenchError> {
        let version = (try? await LpPrintPath.packageVersion("cups", folder: folder)) ?? "(version unknown)"
        var result = CupsStartup(toAccepting: [], idle: nil, version: "CUPS \(version)")
        for index in 1...starts {
            progress("cupsd start \(index) of \(starts)")
            let started = ContinuousClock.now
            let cups: PrivateCups
            do { cups = try await PrivateCups.start(logLevel: "warn") } catch {
                return .failure(BenchError("\(error)"))
            }
            result.toAccepting.append(ContinuousClock.now - started)
            if index == starts, let pid = ProcessTree.child(of: cups.process.pid) {
                result.idle = try? await IdleReading.after(idleWait, pid: pid)
            }
            _ = try? await offloaded { cups.stop() }
        }
        return .success(result)
    }
}
