import IPP
public import PrintModel
import PrinterLanguages

/// Why a printer could not be set up. Each message says what to do next.
public enum SetupError: Error, CustomStringConvertible, Equatable {
    case invalidURI(String)
    /// A `socket://`, `usb://` or `serial://` URI that does not parse: `RawURIError`'s message.
    case invalidRawURI(String)
    /// A raw printer given no model and no description, whose model is not known otherwise.
    case rawModelNeeded(uri: String, deviceModel: String?)
    /// The catalog and overrides gave no usable profile: `ProfileError`'s message.
    case rawProfile(String)
    /// The contact failed; the text is the contact error's own message.
    case unreachable(String)
    /// `add` refused a printer that did not answer.
    case refusedUnreachable(String)
    case wrongKinds(printer: String, kinds: Set<JobKind>, kindsSource: PrinterCapabilities.KindsSource, role: Role)
    /// The printer described itself with figures that cannot be true, leaving
    /// nothing to print with (no plausible resolution, or no plausible paper).
    case implausible(printer: String, uri: String, problems: [String])
    /// A saved ipps printer presented another certificate than its pin.
    case certificateChanged(printer: String, id: Int64, uri: String, pinned: CertificateFingerprint,
                            presented: CertificateFingerprint?)
    /// `printers trust` for a printer that presents no certificate (ipp or raw).
    case nothingToPin(printer: String, uri: String)
    /// `printers trust --fingerprint`: the printer presented another certificate than the one given.
    case fingerprintDiffers(printer: String, uri: String, given: CertificateFingerprint, presented: CertificateFingerprint)
    /// The pin changed (another administrator, another process) between reading and saving it.
    case pinChangedMeanwhile(printer: String)

    public var description: String {
        switch self {
        case .invalidURI(let uri):
            return "'\(uri)' is not a printer URI. Give it as ipp://HOST:PORT/PATH or ipps://HOST:PORT/PATH, "
                + "for example ipp://192.168.1.40:631/ipp/print, or for a raw printer as socket://HOST[:PORT], "
                + "usb://MAKE/MODEL?serial=SERIAL or serial:///dev/ttyUSB0?baud=115200; "
                + "kioskprint printers discover lists the URIs of the printers it finds."
        case .invalidRawURI(let message), .rawProfile(let message):
            return message
        case .rawModelNeeded(let uri, let deviceModel):
            let known = ["TM-T88VI", "TM-T20III", "TM-m30III", "TSP143", "CT-S310II", "ZD420-203dpi"]
                .filter { name in ModelCatalog.entries.contains { $0.name == name } }
            let why = deviceModel.map { "its model \"\($0)\" is not in KioskPrint's catalog" }
                ?? "a raw printer cannot be asked what it is"
            return "KioskPrint does not know what printer \(uri) is: \(why). Give its model, for example --model TM-T88VI, "
                + "or describe it, for example --language escpos --width 80mm --printable 576 --dpi 203 "
                + "(--language zpl --width 4in --dpi 203 for a label printer). Catalog models include "
                + known.joined(separator: ", ") + "."
        case .unreachable(let message):
            return message
        case .refusedUnreachable(let message):
            return message + " To save it anyway (it will be contacted again before printing), add --force."
        case .wrongKinds(let printer, let kinds, let source, let role):
            let what = kinds.isEmpty ? "does not say what kind of printer it is"
                : "is a \(kinds.listing) printer" + (source == .inferred ? " (judged from its media)" : "")
            let needed = role.acceptedKinds.sorted().map(\.rawValue).joined(separator: " or ")
            return "\(printer) \(what); the role '\(role)' needs a \(needed) printer. "
                + "Choose another printer (kioskprint printers discover --kind \(role.acceptedKinds.sorted().first?.rawValue ?? "receipt")), "
                + "or add --force if you are sure it can print these jobs."
        case .implausible(let printer, let uri, let problems):
            return "\(printer) (\(uri)) describes itself with figures no printer has: \(problems.joined(separator: "; ")). "
                + "It was not saved, since nothing could be drawn for it. Check that the address is the printer's own "
                + "(not another device answering IPP) and update its firmware, or add --force to save it anyway."
        case .certificateChanged(let printer, let id, let uri, let pinned, let presented):
            return CertificateMismatch(uri: uri, pinned: pinned, presented: presented).explanation(printer: printer, id: id)
        case .nothingToPin(let printer, let uri):
            return "\(printer) (\(uri)) presents no certificate to trust: only ipps:// printers do. Nothing was "
                + "changed. To print to it encrypted, save it under its ipps:// address (`kioskprint printers discover` "
                + "lists it) with `kioskprint printers add`."
        case .fingerprintDiffers(let printer, let uri, let given, let presented):
            return "\(printer) (\(uri)) presents the certificate SHA-256 \(presented.hex), not the \(given.hex) given "
                + "with --fingerprint, so it was not trusted and nothing was changed. Compare with the fingerprint on "
                + "the printer's own status page; if they differ, another machine may be answering at its address."
        case .pinChangedMeanwhile(let printer):
            return "The pinned certificate of \(printer) was changed by someone else while this ran; nothing was "
                + "changed. See it with `kioskprint printers list` and run the command again if it is still needed."
        }
    }
}
