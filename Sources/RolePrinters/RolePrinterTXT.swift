import Foundation
import IPP
public import PrintModel

/// A role printer's DNS-SD TXT record (PWG 5100.14 §4.2, Apple's Bonjour
/// Printing Specification), made from the same description its IPP
/// attributes come from, so that the two agree (ippeveselfcert's
/// dnssd-tests.sh compares them).
public struct RolePrinterTXT: Sendable {
    /// "receipt @ till-3": the instance name a client lists.
    public var name: String
    public var pairs: [(key: String, value: String)]
}

extension RolePrinterServer {
    /// The TXT record of `role` as served at `host:port` (the name clients reach the box by).
    public func txtRecord(for role: Role, host: String, port: Int, secure: Bool) async -> RolePrinterTXT? {
        guard roles.contains(role), let printer = try? await describe(role, base: "\(secure ? "ipps" : "ipp")://\(host):\(port)") else {
            return nil
        }
        let attributes = printer.attributes()
        let urf = attributes.strings("urf-supported").joined(separator: ",")
        let uuid = identity.uuid(for: role).replacingOccurrences(of: "urn:uuid:", with: "")
        var pairs: [(key: String, value: String)] = [
            ("txtvers", "1"), ("qtotal", "1"),
            ("rp", "ipp/print/\(role)"),
            ("ty", attributes.string("printer-make-and-model") ?? "KioskPrint role printer"),
            ("adminurl", printer.pageURI),
            ("note", attributes.string("printer-location") ?? ""),
            ("pdl", printer.documentFormats.joined(separator: ",")),
            ("UUID", uuid),
            ("URF", urf),
            ("kind", printer.kinds.joined(separator: ",")),
            ("PaperMax", Self.paperMax(printer.media)),
            ("Color", printer.capabilities?.color == true ? "T" : "F"),
            ("Duplex", "F"),
            ("product", "(KioskPrint Role Printer)"),
        ]
        if secure { pairs.append(("TLS", "1.2")) }
        return RolePrinterTXT(name: "\(role) @ \(identity.box)", pairs: pairs)
    }

    /// `PaperMax`: the largest paper class, by width (PWG 5100.14 §4.2.7).
    static func paperMax(_ media: RoleMedia) -> String {
        let widest = media.entries.map(\.width).max() ?? 0
        switch widest {
        case ..<21_590: return "<legal-A4"
        case ..<27_940: return "legal-A4"
        case ..<42_000: return "tabloid-A3"
        case ..<59_400: return "isoC-A2"
        default: return ">isoC-A2"
        }
    }
}
