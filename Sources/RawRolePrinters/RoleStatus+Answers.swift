import PrinterLanguages
import RolePrinters

extension RoleStatus {
    /// The bytes `ask` is answered with, for `snapshot`'s printer.
    static func answer(_ ask: HostAsk, _ snapshot: Snapshot) -> [UInt8] {
        let model = snapshot.printer?.capabilities.makeAndModel ?? snapshot.printer?.name ?? "KioskPrint"
        switch ask {
        case .escpos(let ask):
            return EscPosStatusAnswers(status: snapshot.status, modelName: model).answer(ask)
        case .zpl(let ask):
            let dpi = snapshot.printer?.capabilities.rawProfile?.dpi ?? 203
            return ZPLStatusAnswers(status: snapshot.status, model: model, dotsPerMillimetre: max(1, (dpi * 10 + 127) / 254)).answer(ask)
        }
    }
}
