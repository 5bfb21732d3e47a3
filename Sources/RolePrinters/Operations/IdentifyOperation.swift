import IPP
public import PrintModel
import Spooler

/// Something beside the printer that can show a person which role printer
/// this is: the role's status light, flashed for a while.
public protocol RoleSignals: Sendable {
    /// Flashes what the role has; returns what was done, nil when the role has nothing.
    func flash(_ role: Role) async -> String?
}

extension RolePrinterServer {
    /// The `identify-actions` a role printer takes: `sound` and `display`
    /// go to the printer (an IPP printer's own Identify-Printer, a raw
    /// receipt printer's beep), `flash` to the printer and the role's light.
    static let identifyActions = ["display", "flash", "sound"]

    /// Identify-Printer (PWG 5100.13 §4.1): shows which printer this is,
    /// moving no paper. Answered `successful-ok` with what was done, or
    /// `successful-ok-ignored-or-substituted-attributes` with the actions
    /// nothing here can do, or `server-error-device-error` when the printer
    /// cannot be reached.
    func identifyPrinter(_ request: RolePrinterRequest) async throws(IPPRefusal) -> Answer {
        let asked = request.operationAttributes.strings("identify-actions")
        let wanted = (asked.isEmpty ? ["sound"] : asked).filter(Self.identifyActions.contains)
        let unknown = asked.filter { !Self.identifyActions.contains($0) }
        let description = try await describe(request)
        var done: [String] = []
        var refused: [String] = []
        if wanted.contains("flash"), let signals, let flashed = await signals.flash(request.role) { done.append(flashed) }
        if let printer = description.printer, !wanted.isEmpty {
            switch await channels.channel(for: ChannelTarget(printer)).identify(actions: wanted) {
            case .done(let what): done.append(what)
            case .unsupported(let why): refused.append(why)
            case .failed(let why):
                if done.isEmpty { throw IPPRefusal(.deviceError, "The role \(request.role)'s printer could not be reached: \(why)") }
                refused.append(why)
            }
        } else if description.printer == nil, done.isEmpty {
            throw IPPRefusal(.notPossible, description.stateMessage)
        }
        let ignored = unknown + (done.isEmpty ? wanted : [])
        let unsupported = ignored.isEmpty ? [] : [IPPAttribute.keywords("identify-actions", ignored)]
        let message = (done + refused + (unknown.isEmpty ? [] : ["\(unknown.joined(separator: ", ")) cannot be done here."]))
            .joined(separator: " ")
        return Answer(message: message.isEmpty ? nil : message, unsupported: unsupported)
    }
}
