import CCups
public import PrintModel

/// Contacting a printer: the IPP Get-Printer-Attributes request that Apple's
/// `UIPrinter.contactPrinter` makes. It confirms the printer is there and
/// reads what discovery cannot know (name, kinds, state, media, resolutions).
public enum PrinterContact {
    /// Asks the printer at `uri` for its attributes and maps them.
    ///
    /// - Parameters:
    ///   - uri: `ipp://HOST:PORT/PATH` or `ipps://...`. With ipps the printer's
    ///     certificate is accepted as it is (printers use self-signed ones), as ipptool does.
    ///   - timeout: the most the whole exchange may take, connection included.
    ///     The call returns within it (plus at most half a second), also when
    ///     the printer accepts the connection and never answers.
    ///   - txt: the printer's DNS-SD TXT record, when it was discovered: it fills
    ///     in what the reply lacks (kinds, location, admin URL...).
    public static func contact(uri: String, timeout: Duration = .seconds(5),
                               txt: TXTRecord? = nil) async throws(ContactError) -> PrinterCapabilities {
        let attributes = try await printerAttributes(uri: uri, timeout: timeout)
        return PrinterCapabilities(ippAttributes: attributes, txt: txt)
    }

    /// The printer attributes of a Get-Printer-Attributes reply, unmapped:
    /// for diagnostics and for callers that need an attribute the
    /// capabilities leave out. An IPP error status becomes `.ippError`.
    public static func printerAttributes(uri: String, timeout: Duration = .seconds(5),
                                         requested: [String] = ["all", "media-col-database"])
        async throws(ContactError) -> [IPPAttribute] {
        let response = try await request(uri: uri, timeout: timeout, requested: requested)
        guard response.isSuccess else {
            throw .ippError(uri: uri, status: response.statusName, message: response.statusMessage)
        }
        return response.attributes(in: .printer)
    }

    /// The whole reply, whatever its IPP status.
    static func request(uri: String, timeout: Duration, requested: [String])
        async throws(ContactError) -> IPPResponse {
        // "all" does not include media-col-database (PWG 5100.7), so it is asked for by name.
        try await IPPExchange.send(uri: uri, operation: IPP_OP_GET_PRINTER_ATTRIBUTES, timeout: timeout,
                                   builder: IPPRequestBuilder { request in
            IPPExchange.addStrings(request, group: IPP_TAG_OPERATION, syntax: IPP_TAG_KEYWORD,
                                   name: "requested-attributes", requested)
        })
    }
}
