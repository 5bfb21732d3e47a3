import PrintModel

/// The bytes an ESC/POS printer in `status` answers a host's ask with: the
/// inverse of ``EscPosRealTimeStatus``, from the same pages of Epson's
/// ESC/POS Command Reference (dle_eot, gs_lr, gs_la, esc_lv, esc_lu, gs_ci,
/// gs_lparen_ch_fn48). Fixed bits are set as the reference fixes them, so a
/// host tells a `DLE EOT` answer (0xx1xx10) from an ASB one (0xx1xx00).
public struct EscPosStatusAnswers: Sendable {
    public var status: RawPrinterStatus
    /// `GS I 67`'s model name and `GS I 66`'s maker.
    public var modelName: String
    public var maker: String

    public init(status: RawPrinterStatus, modelName: String = "KioskPrint virtual printer", maker: String = "KioskPrint") {
        self.status = status; self.modelName = modelName; self.maker = maker
    }

    /// Printing stops: the host must see the printer offline.
    private var stopped: Bool { status.printerState == .stopped || status.offline }
    private var drawerHigh: Bool { status.drawerOpen == true }
    private var anyError: Bool { status.cutterError || status.recoverableError || status.unrecoverableError }

    /// The answer; empty for an ask a printer does not answer (`DLE ENQ`, `GS a 0`, an unknown n).
    public func answer(_ ask: EscPosHostAsk) -> [UInt8] {
        switch ask {
        case .realTimeStatus(let n): realTimeStatus(n).map { [$0] } ?? []
        case .transmitStatus(let n):
            switch n {
            case 1, 49: [paperSensor]
            case 2, 50: [drawerHigh ? 0x01 : 0]
            default: []
            }
        case .paperSensorStatus: [paperSensor]
        case .peripheralStatus: [drawerHigh ? 0x01 : 0]
        case .automaticStatus(let n): n & 0x0F == 0 ? [] : automaticStatus
        case .printerID(let n): printerID(n)
        case .processID(let id): [0x37, 0x22] + id + [0x00]
        case .recoveryRequest: []
        }
    }

    /// `DLE EOT n`'s byte for n = 1 to 4; nil for any other n.
    public func realTimeStatus(_ n: UInt8) -> UInt8? {
        switch n {
        case 1: 0x12 | (drawerHigh ? 0x04 : 0) | (stopped ? 0x08 : 0)
        case 2: 0x12 | (status.coverOpen ? 0x04 : 0) | (status.paperEnd ? 0x20 : 0) | (anyError ? 0x40 : 0)
        case 3: 0x12 | (status.recoverableError ? 0x04 : 0) | (status.cutterError ? 0x08 : 0)
                | (status.unrecoverableError ? 0x20 : 0) | (status.autoRecoverableError ? 0x40 : 0)
        // An empty roll reads as near its end too: that sensor sees no paper either.
        case 4: 0x12 | (status.paperNearEnd || status.paperEnd ? 0x0C : 0) | (status.paperEnd ? 0x60 : 0)
        default: nil
        }
    }

    /// `GS r 1` and `ESC v`: bits 0-1 near end, 2-3 roll end.
    private var paperSensor: UInt8 { (status.paperNearEnd || status.paperEnd ? 0x03 : 0) | (status.paperEnd ? 0x0C : 0) }

    /// The four ASB bytes: printer (bit 4 fixed on, 2 drawer, 3 offline, 5
    /// cover), errors (3 cutter, 5 unrecoverable, 6 auto-recoverable, 2
    /// recoverable), paper sensors (as `GS r 1`), and a fourth with nothing set.
    public var automaticStatus: [UInt8] {
        [0x10 | (drawerHigh ? 0x04 : 0) | (stopped ? 0x08 : 0) | (status.coverOpen ? 0x20 : 0),
         (status.recoverableError ? 0x04 : 0) | (status.cutterError ? 0x08 : 0)
            | (status.unrecoverableError ? 0x20 : 0) | (status.autoRecoverableError ? 0x40 : 0),
         paperSensor,
         0]
    }

    /// `GS I n`: 1 model ID, 2 type ID (bit 1: an autocutter), 3 ROM version;
    /// 65 to 69 a text `_...NUL` (firmware, maker, model, serial, fonts).
    private func printerID(_ n: UInt8) -> [UInt8] {
        func text(_ value: String) -> [UInt8] { [0x5F] + Array(value.utf8.filter { $0 >= 0x20 && $0 < 0x7F }.prefix(80)) + [0x00] }
        switch n {
        case 1, 49: return [0x20]
        case 2, 50: return [0x02]
        case 3, 51: return [0x40]
        case 65: return text("1.0")
        case 66: return text(maker)
        case 67: return text(modelName)
        case 68: return text("0")
        case 69: return text("PC437")
        default: return []
        }
    }
}
