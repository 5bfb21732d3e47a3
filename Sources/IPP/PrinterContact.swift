import CCups
public import PrintModel

/// Contacting a printer: the IPP Get-Printer-Attributes request that Apple's
/// `UIPrinter.contactPrinter` makes. It confirms the printer is there and
/// reads what discovery cannot know (name, kinds, state, media, resolutions).
public enum PrinterContact {
    /// Asks the printer at `uri` for its attributes and maps them.
    ///
    /// - Parameters:
    ///   - uri: `ipp://HOST:PORT/PATH` or `ipps://...`.
    ///   - timeout: the most the whole exchange may take, connection included.
    ///     The call returns within it (plus at most half a second), also when
    ///     the printer accepts the connection and never answers.
    ///   - txt: the printer's DNS-SD TXT record, when it was discovered: it fills
    ///     in what the reply lacks (kinds, location, admin URL...).
    ///   - pin: the certificate a saved ipps printer must present; a printer
    ///     presenting another is refused with `.certificateChanged` before
    ///     anything is sent. Nil accepts any certificate (printers use
    ///     self-signed ones), as ipptool does: for printers not saved yet.
    public static func contact(uri: String, timeout: Duration = .seconds(5), txt: TXTRecord? = nil,
                               pin: CertificateFingerprint? = nil) async throws(ContactError) -> PrinterCapabilities {
        try await contactWithCertificate(uri: uri, timeout: timeout, txt: txt, pin: pin).capabilities
    }

    /// `contact`, also returning the certificate the printer presented: what
    /// an administrator's save pins.
    public static func contactWithCertificate(uri: String, timeout: Duration = .seconds(5), txt: TXTRecord? = nil,
                                              pin: CertificateFingerprint? = nil)
        async throws(ContactError) -> ContactedPrinter {
        let response = try await request(uri: uri, timeout: timeout, pin: pin, requested: ["all", "media-col-database"])
        let attributes = try printerAttributes(of: response, uri: uri)
        return ContactedPrinter(capabilities: PrinterCapabilities(ippAttributes: attributes, txt: txt),
                                certificate: response.certificate)
    }

    /// The printer attributes of a Get-Printer-Attributes reply, unmapped:
    /// for diagnostics and for callers that need an attribute the
    /// capabilities leave out. An IPP error status becomes `.ippError`.
    public static func printerAttributes(uri: String, timeout: Duration = .seconds(5),
                                         requested: [String] = ["all", "media-col-database"],
                                         pin: CertificateFingerprint? = nil)
        async throws(ContactError) -> [IPPAttribute] {
        let response = try await request(uri: uri, timeout: timeout, pin: pin, requested: requested)
        return try printerAttributes(of: response, uri: uri)
    }

    private static func printerAttributes(of response: IPPResponse, uri: String) throws(ContactError) -> [IPPAttribute] {
        guard response.isSuccess else {
            throw .ippError(uri: uri, status: response.statusName, message: response.statusMessage)
        }
        return response.attributes(in: .printer)
    }

    /// The whole reply, whatever its IPP status.
    static func request(uri: String, timeout: Duration, pin: CertificateFingerprint?, requested: [String])
        async throws(ContactError) -> IPPResponse {
        // "all" does not include media-col-database (PWG 5100.7), so it is asked for by name.
        try await IPPExchange.send(uri: uri, operation: IPP_OP_GET_PRINTER_ATTRIBUTES, timeout: timeout, pin: pin,
                                   builder: IPPRequestBuilder { request in
            IPPExchange.addStrings(request, group: IPP_TAG_OPERATION, syntax: IPP_TAG_KEYWORD,
                                   name: "requested-attributes", requested)
        })
    }
}

/// What contacting a printer found: its capabilities and, over `ipps://`,
/// the certificate it presented.
public struct ContactedPrinter: Sendable, Hashable {
    public var capabilities: PrinterCapabilities
    /// The SHA-256 fingerprint of the certificate presented; nil over `ipp://`.
    public var certificate: CertificateFingerprint?

    public init(capabilities: PrinterCapabilities, certificate: CertificateFingerprint?) {
        self.capabilities = capabilities; self.certificate = certificate
    }
}
