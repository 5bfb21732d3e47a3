import Foundation
import IPP
import PrintModel
import PrinterLanguages
import RolePrinters
import Simulator
import Synchronization
import Testing

/// Identify-Printer shows a person which printer holds the role, moving no
/// paper: a raw receipt printer is sent its beep, the role's light blinks,
/// and what cannot be done is named rather than pretended.
@Suite(.timeLimit(.minutes(1))) struct IdentifyPrinterTests {
    static let identify = 0x003C

    static func actions(_ values: String...) -> IPPAttribute {
        IPPAttribute(name: "identify-actions", syntax: .keyword, group: .operation, values: values.map { .string($0) })
    }

    @Test func aRawReceiptPrinterIsSentItsBeepAndNoPaperMoves() async throws {
        let printer = try EscPosPrinterSimulator(configuration: .init(printableWidth: 576, dotsPerInch: 203))
        defer { printer.stop() }
        let capabilities = try ModelCatalog.profile(model: "TM-m30III").capabilities(name: "Counter TM-m30III")
        var desk = try await RoleDesk.make(printer: capabilities, uri: printer.uri)
        let reply = await desk.send(Self.identify, [Self.actions("sound")])
        #expect(reply.status == .ok, "\(reply.attributes(in: .operation).string("status-message") ?? "")")
        let record = try await printer.record("a beep") { !$0.beeps.isEmpty }
        #expect(record.beeps.first?.count == 2, "\(record.beeps)")
        #expect(record.pieces.isEmpty && record.uncut.lengthInDots == 0, "no paper moved")
    }

    @Test func theRolesLightBlinksAndAnUnknownActionIsNamed() async throws {
        let light = RecordedFlashes()
        var desk = try await RoleDesk.make(signals: light)
        let reply = await desk.send(Self.identify, [Self.actions("flash", "speak")])
        // The light blinked; the IPP printer behind the role (nobody at 127.0.0.1:1) could not be asked.
        #expect(reply.status == .okIgnoredOrSubstituted, "\(reply.status)")
        #expect(light.roles == [.receipt])
        let message = reply.attributes(in: .operation).string("status-message") ?? ""
        #expect(message.contains("light blinks") && message.contains("speak cannot be done"), "\(message)")
        #expect(reply.attributes(in: .unsupported).strings("identify-actions") == ["speak"])
    }

    @Test func anUnreachablePrinterIsADeviceErrorNamingIt() async throws {
        var desk = try await RoleDesk.make()
        let reply = await desk.send(Self.identify, [Self.actions("sound")])
        #expect(reply.status == .deviceError, "\(reply.status)")
        let message = reply.attributes(in: .operation).string("status-message") ?? ""
        #expect(message.contains("could not be reached") && message.contains("Counter TM-80"), "\(message)")
    }
}

/// A stand-in for the role's status light: GPIO lines cannot exist here;
/// the agent's `LightFlashes` is this seam's real side.
final class RecordedFlashes: RoleSignals {
    private let flashed = Mutex<[Role]>([])
    var roles: [Role] { flashed.withLock { $0 } }
    func flash(_ role: Role) async -> String? {
        flashed.withLock { $0.append(role) }
        return "The \(role) light blinks for 15 s."
    }
}
