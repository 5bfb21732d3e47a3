public import Foundation
import PosMarkup

/// Every reader of outside input, as a function of bytes that must return
/// (not crash, not hang, not eat the machine) whatever the bytes are. The
/// fuzzer (`kioskprint-fuzz`, built with `-sanitize=fuzzer`) feeds them
/// mutated bytes; the test suite replays the kept corpus through the same
/// functions, so a case once found stays fixed.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The strict JSON reader behind every job's data (`print --data`, folders, envelopes).
    case jobJSON = "job-json"
    /// Template markup parsed, bound to data and laid out on an 80 mm roll.
    case template
    /// The agent's TOML configuration, read and checked.
    case configuration
    /// PNG and JPEG logos and printer-ready images.
    case png, jpeg
    /// The check a printer-ready PDF passes before it is queued.
    case pdf
    /// A job envelope dropped into a watched folder.
    case envelope
    /// A printer's Get-Printer-Attributes answer turned into capabilities and a page.
    case printerAttributes = "printer-attributes"
    /// One request to the HTTP API: routes, token gate, origin and host checks, body limits, problem answers.
    case httpRequest = "http-request"
    /// An IPP message as a role printer's listener reads it (libcups' reader), and its reply written back.
    case ippMessage = "ipp-message"
    /// A role printer's answer to an IPP request (every operation, over a real store).
    case rolePrinter = "role-printer"
    /// A client's PWG raster or URF document, read into pages as a role printer reads it.
    case raster
    /// A till's stream to a raw role printer, split into print data and asks (ESC/POS or ZPL), each ask answered.
    case rawHostStream = "raw-host-stream"
    /// An ePOS-Print XML request read, and drawn for an 80 mm receipt printer.
    case eposRequest = "epos-request"
    /// A Star WebPRNT request read, and drawn for an 80 mm receipt printer.
    case webprntRequest = "webprnt-request"
    /// What a raw printer sends back, read as a status answer in each raw
    /// language (ESC/POS DLE EOT, ZPL ~HS, Star's automatic status and ETB count).
    case rawStatusAnswer = "raw-status-answer"
    /// Template markup drawn for an ESC/POS receipt printer with its text
    /// left to the printer's font (`delivery = "native"`) and encoded: every
    /// line the drawing leaves to the printer must be one the encoder takes.
    case nativeText = "native-text"

    /// Runs the reader on `data`. Errors are the reader's business (bad input
    /// is refused with a message); only a crash, a hang or runaway memory is a finding.
    public func run(_ data: Data) {
        switch self {
        case .jobJSON: FuzzReaders.jobJSON(data)
        case .template: FuzzReaders.template(data)
        case .configuration: FuzzReaders.configuration(data)
        case .png: FuzzReaders.image(data, png: true)
        case .jpeg: FuzzReaders.image(data, png: false)
        case .pdf: FuzzReaders.pdf(data)
        case .envelope: FuzzReaders.envelope(data)
        case .printerAttributes: FuzzReaders.printerAttributes(data)
        case .httpRequest: HTTPRequestReader.respond(data)
        case .ippMessage: FuzzReaders.ippMessage(data)
        case .rolePrinter: RolePrinterReader.respond(data)
        case .raster: FuzzReaders.raster(data)
        case .rawHostStream: FuzzReaders.rawHostStream(data)
        case .eposRequest: FuzzReaders.receiptMarkup(data, read: { (data) throws(PosMarkupError) in try EposRequest.parse(data).commands })
        case .webprntRequest: FuzzReaders.receiptMarkup(data, read: { (data) throws(PosMarkupError) in try WebPrntRequest.parse(data).commands })
        case .rawStatusAnswer: FuzzReaders.rawStatusAnswer(data)
        case .nativeText: FuzzReaders.nativeText(data)
        }
    }
}
