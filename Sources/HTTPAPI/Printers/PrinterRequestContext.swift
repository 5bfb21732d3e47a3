import Hummingbird
import NIOCore

/// The request context of the role printers' listener (IPP, ePOS-Print):
/// Hummingbird's basic context and the client's address, which the
/// ePOS-Print allow-list reads (Epson's clients send no credentials).
struct PrinterRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's address as text, for messages.
    var client: String { remoteAddress?.ipAddress ?? "a client" }
}
