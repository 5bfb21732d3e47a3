import HTTPAPI
import KioskConfiguration
import Logging
import RawRolePrinters
import ServiceLifecycle
import Synchronization

/// What the agent listens on for a configuration: the HTTP API and the IPP
/// role printers (one `APIServer`), and the raw role printers.
struct Listeners: Sendable {
    let api: APIServer
    let raw: RawRolePrinters

    var count: Int { api.listenerCount + raw.listenerCount }
}

/// The agent's listeners as a service: a failure to serve is logged with
/// what to do, and does not stop the agent. A reload whose `[http]`, `[ipp]`
/// or roles' listeners changed (addresses, origins, limits, certificate)
/// stops the listeners and starts them again with the new settings; the
/// queue and the spooler are not touched.
struct HTTPService: Service {
    /// The listeners of the configuration the agent started with.
    let first: Listeners
    /// Each reload's configuration whose listeners (or box name) changed.
    let changes: AsyncStream<AgentConfiguration>
    let makeServer: @Sendable (AgentConfiguration) -> Listeners
    let listened: AsyncStream<Void>.Continuation
    let logger: Logger

    func run() async throws {
        // However it ends, nobody waits for its listeners any more.
        defer { listened.finish() }
        // The server runs in a task of its own so that a reload can stop it alone; a cancelled service cancels it too.
        let serving = Mutex<Task<Void, Never>?>(serve(first))
        await withTaskCancellationHandler {
            for await configuration in changes.cancelOnGracefulShutdown() {
                let stopping = serving.withLock { $0 }
                stopping?.cancel()
                await stopping?.value
                logger.notice(Logger.Message(stringLiteral: configuration.http.isEnabled || !configuration.ippRoles.isEmpty
                    ? "SIGHUP: the HTTP API and the role printers start again with the [http] and [ipp] settings now in force."
                    : "SIGHUP: the HTTP API is off in the new configuration; its listeners are closed."))
                let next = serve(makeServer(configuration))
                serving.withLock { $0 = next }
            }
            // A graceful shutdown: the server ends its streams and stops by itself.
            await serving.withLock({ $0 })?.value
        } onCancel: {
            serving.withLock { $0 }?.cancel()
        }
    }

    /// Serves `listeners` in a task of its own (nil when none is on), so that a reload can stop them alone.
    private func serve(_ listeners: Listeners) -> Task<Void, Never>? {
        guard listeners.count > 0 else { return nil }
        return Task { [listened, logger] in
            await withDiscardingTaskGroup { group in
                if listeners.raw.listenerCount > 0 {
                    // The raw listeners end with the agent's graceful shutdown, as the API server does by itself.
                    group.addTask {
                        try? await cancelWhenGracefulShutdown { await listeners.raw.run(onListening: { _, _ in listened.yield() }) }
                    }
                }
                guard listeners.api.listenerCount > 0 else { return }
                group.addTask {
                    do { try await listeners.api.run(onListening: { listened.yield() }) } catch is CancellationError {
                    } catch {
                        logger.error("""
                            The HTTP API is not served: \(error). Jobs from folders and buttons still print. \
                            If the address is in use, another agent may be running; set [http] listen to another port, or "off", \
                            and reload the agent (systemctl reload kioskprint).
                            """)
                    }
                }
            }
        }
    }
}
