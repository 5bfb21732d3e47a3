import KioskConfiguration
import GPIO
import Logging
import HTTPAPI
import Service
import ServiceLifecycle
import Spooler
import Store
import Synchronization
import Triggers
import UnixSignals

/// The configuration's triggers, replaced on SIGHUP by a good new configuration.
final class TriggerService: Service, Sendable {
    let agent: Agent
    let notifier: ServiceNotifier
    /// The configuration in force, for status lines and the watchdog.
    let current: Mutex<AgentConfiguration>

    let apiListening: APIListening
    /// Where a reload's new configuration goes when its `[http]` table changed.
    let httpChanged: AsyncStream<AgentConfiguration>.Continuation

    init(agent: Agent, notifier: ServiceNotifier, apiListening: APIListening,
         httpChanged: AsyncStream<AgentConfiguration>.Continuation) {
        self.agent = agent
        self.notifier = notifier
        self.apiListening = apiListening
        self.httpChanged = httpChanged
        current = Mutex(agent.configuration)
    }

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        var running = start(agent.configuration)
        await apiListening.wait()
        let queued = (try? await agent.intake.store.queueDepth()) ?? 0
        notifier.ready(status: "\(running.set.summary); \(queued) job(s) queued")
        agent.logger.notice(Logger.Message(stringLiteral: "kioskprint agent ready: \(running.set.summary), box \(agent.configuration.box), "
            + "database \(agent.intake.store.path)"))
        for warning in await UnpinnedPrinters.warnings(in: agent.intake.store) {
            agent.logger.warning(Logger.Message(stringLiteral: warning))
        }
        for await _ in hangups.cancelOnGracefulShutdown() {
            guard let reload = agent.reload else {
                agent.logger.notice("SIGHUP: the agent runs on built-in defaults (no configuration file); nothing to reload.")
                continue
            }
            let next: AgentConfiguration
            do {
                next = try reload()
                let problems = MachineCheck.problems(in: next, catalog: agent.intake.catalog)
                if !problems.isEmpty { throw ConfigurationError(path: next.source ?? "configuration", problems: problems) }
            } catch {
                agent.logger.error("SIGHUP: the configuration was not reloaded, the one in force stays: \(error)")
                continue
            }
            running.task.cancel()
            await running.task.value
            let previous = current.withLock { $0 }
            if next.database != previous.database || next.logLevel != previous.logLevel {
                agent.logger.notice("SIGHUP: database and log-level changes take effect at the next start.")
            }
            // The certificate's files may have been renewed in place (or be due to be made anew): TLS is loaded again at every reload.
            if next.http != previous.http || next.box != previous.box || next.http.tlsCertificate != nil
                || next.ipp != previous.ipp || next.ippRoles != previous.ippRoles || next.ipp.tls
                || next.rawRoles != previous.rawRoles || next.eposRoles != previous.eposRoles || next.epos != previous.epos
                || next.webprntRoles != previous.webprntRoles || next.webprnt != previous.webprnt {
                httpChanged.yield(next)
            }
            running = start(next)
            agent.logger.notice("SIGHUP: configuration reloaded: \(running.set.summary)")
            notifier.status("\(running.set.summary); configuration reloaded")
        }
        notifier.stopping()
        agent.logger.notice("kioskprint agent stopping: triggers stop, the queue is kept.")
        running.task.cancel()
        await running.task.value
    }

    private func start(_ configuration: AgentConfiguration) -> (set: TriggerSet, task: Task<Void, Never>) {
        current.withLock { $0 = configuration }
        let spooler = agent.spooler
        let set = TriggerSet(configuration: configuration, intake: agent.intake, gpio: agent.gpio, logger: agent.logger,
                             jobQueued: { spooler.wake() }, flashes: agent.flashes)
        return (set, Task { await set.run() })
    }
}
