import Foundation
import IPP
import PrintModel

/// What a client asked of a job (Print-Job, Validate-Job, Create-Job),
/// checked against what the role printer offers. A value it does not
/// support is refused when the client asks for fidelity, and otherwise
/// left out and named in the answer's unsupported group (RFC 8011 §4.1.7).
struct JobTicket: Sendable {
    var name: String
    var copies = 1
    /// The MIME type the document is declared as; `application/octet-stream` when it is to be recognised.
    var format = "application/octet-stream"
    /// The cut length the client chose (`media-col`'s y-dimension, or a size in `media`), in hundredths of a millimetre.
    var length: Int?
    /// The pages to print (`page-ranges`, 1-based), applied to a PDF; nil prints them all.
    var pageRanges: [ClosedRange<Int>]?
    /// What was ignored or substituted, for the unsupported group.
    var unsupported: [IPPAttribute] = []

    static func read(_ request: RolePrinterRequest, printer: PrinterDescription) throws(IPPRefusal) -> JobTicket {
        let operation = request.operationAttributes
        let fidelity = operation.bool("ipp-attribute-fidelity") ?? false
        var ticket = JobTicket(name: JobName.cleaned(operation.string("job-name") ?? operation.string("document-name") ?? "IPP job"))
        if ticket.name.isEmpty { ticket.name = "IPP job" }
        try ticket.readDocumentAttributes(operation, printer: printer)
        var refused: [IPPAttribute] = []
        for attribute in request.jobAttributes {
            if !ticket.accept(attribute, printer: printer) { refused.append(.unsupported(attribute.name)) }
        }
        if !refused.isEmpty, fidelity {
            throw IPPRefusal(.attributesOrValuesNotSupported,
                             "This printer does not support \(refused.map(\.name).joined(separator: ", ")) as asked, "
                                + "and ipp-attribute-fidelity asks for all or nothing. "
                                + "Get-Printer-Attributes lists what it supports.", unsupported: refused)
        }
        ticket.unsupported = refused
        return ticket
    }

    /// `document-format` and `compression`, which Print-Job and Send-Document carry.
    mutating func readDocumentAttributes(_ operation: [IPPAttribute], printer: PrinterDescription) throws(IPPRefusal) {
        if let compression = operation.string("compression"), compression != "none" {
            throw IPPRefusal(.compressionNotSupported, "compression \(compression) is not supported; send the document as it is (none).",
                             unsupported: [.unsupported("compression")])
        }
        if let format = operation.string("document-format") {
            guard printer.documentFormats.contains(format.lowercased()) else {
                throw IPPRefusal(.documentFormatNotSupported, "\(printer.role) does not print \(format): "
                    + "send one of \(printer.documentFormats.joined(separator: ", ")).",
                    unsupported: [operation[named: "document-format"]!.inGroup(.unsupported)])
            }
            self.format = format.lowercased()
        }
    }

    /// Takes one job template attribute; false when its value is not supported.
    private mutating func accept(_ attribute: IPPAttribute, printer: PrinterDescription) -> Bool {
        switch attribute.name {
        case "copies":
            guard let copies = attribute.value?.int, (1...99).contains(copies) else { return false }
            self.copies = copies
        case "media":
            guard let name = attribute.value?.string, let size = Self.size(ofMediaName: name),
                  let entry = printer.media.entry(width: size.width, length: size.length) else { return false }
            length = entry.isRoll ? size.length : nil
        case "media-col":
            guard let members = attribute.value?.collection else { return false }
            if let source = members.string("media-source"), !printer.media.sources.contains(source) { return false }
            if let size = members.collections("media-size").first {
                guard let width = size.int("x-dimension"), let height = size.int("y-dimension"),
                      let entry = printer.media.entry(width: width, length: height) else { return false }
                length = entry.isRoll ? height : nil
            }
        case "finishings":
            guard attribute.ints.allSatisfy(printer.finishings.contains) else { return false }
        case "sides":
            guard attribute.value?.string == "one-sided" else { return false }
        case "print-color-mode":
            guard let mode = attribute.value?.string, ["monochrome", "auto", "bi-level"].contains(mode)
                || mode == "color" && printer.capabilities?.color == true else { return false }
        case "print-quality":
            guard attribute.value?.int.map((3...5).contains) == true else { return false }
        case "orientation-requested":
            guard attribute.value?.int == 3 else { return false }
        case "printer-resolution":
            guard attribute.value?.resolution == printer.resolution else { return false }
        case "job-priority":
            guard attribute.value?.int.map((1...100).contains) == true else { return false }
        case "job-sheets":
            guard attribute.value?.string == "none" else { return false }
        case "output-bin":
            guard attribute.value?.string == "face-up" else { return false }
        case "page-ranges":
            // Ascending and apart (RFC 8011 §5.2.7), within the pages a document may have.
            let ranges = attribute.values.compactMap { value -> ClosedRange<Int>? in if case .range(let range) = value { range } else { nil } }
            guard !ranges.isEmpty, ranges.count == attribute.values.count, ranges.first!.lowerBound >= 1,
                  zip(ranges, ranges.dropFirst()).allSatisfy({ $0.upperBound < $1.lowerBound }) else { return false }
            pageRanges = ranges
        case "multiple-document-handling", "print-content-optimize", "print-rendering-intent", "print-scaling":
            break  // one way of each, whatever is asked
        default:
            return false
        }
        return true
    }

    /// The size in a PWG self-describing media name (`oe_roll_3.125x11in`,
    /// `roll_current_80x120mm`, `custom_80x120mm`), in hundredths of a millimetre.
    static func size(ofMediaName name: String) -> (width: Int, length: Int)? {
        guard let last = name.split(separator: "_").last else { return nil }
        let unit: Double
        let figures: Substring
        if last.hasSuffix("mm") { unit = 100; figures = last.dropLast(2) } else if last.hasSuffix("in") {
            unit = 2540; figures = last.dropLast(2)
        } else { return nil }
        let parts = figures.split(separator: "x")
        guard parts.count == 2, let width = Double(parts[0]), let length = Double(parts[1]), width > 0, length > 0,
              width < 100_000, length < 100_000 else { return nil }
        return (Int((width * unit).rounded()), Int((length * unit).rounded()))
    }
}
