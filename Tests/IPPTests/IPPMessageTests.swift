import Foundation
import IPP
import Testing

/// The IPP wire format a role printer's listener reads and writes: messages
/// written by `IPPMessage.encoded()` read back by libcups' reader, requests
/// as clients write them (RFC 8010's framing, by hand) read, and what is not
/// IPP refused with a reason.
@Suite struct IPPMessageTests {
    static let operation = IPPAttributeGroup(tag: .operation, attributes: [
        IPPAttribute(name: "attributes-charset", syntax: .charset, group: .operation, values: [.string("utf-8")]),
        IPPAttribute(name: "attributes-natural-language", syntax: .naturalLanguage, group: .operation, values: [.string("en")]),
    ])

    @Test func everySyntaxReadsBackAsWritten() throws {
        let mediaSize = IPPAttribute(name: "media-size", syntax: .collection, group: .none, values: [.collection([
            IPPAttribute(name: "x-dimension", syntax: .integer, group: .none, values: [.integer(8000)]),
            IPPAttribute(name: "y-dimension", syntax: .rangeOfInteger, group: .none, values: [.range(2540...300_000)]),
        ])])
        let printer = IPPAttributeGroup(tag: .printer, attributes: [
            IPPAttribute(name: "printer-state", syntax: .enumeration, values: [.enumValue(3)]),
            IPPAttribute(name: "printer-is-accepting-jobs", syntax: .boolean, values: [.boolean(true)]),
            IPPAttribute(name: "printer-state-reasons", syntax: .keyword, values: [.string("media-low-warning"), .string("cover-open-error")]),
            IPPAttribute(name: "printer-name", syntax: .name, values: [.string("Kassa 1 – Bon")]),
            IPPAttribute(name: "printer-uri-supported", syntax: .uri, values: [.string("ipp://127.0.0.1:8631/ipp/print/receipt")]),
            IPPAttribute(name: "document-format-supported", syntax: .mimeMediaType,
                         values: [.string("application/pdf"), .string("image/urf")]),
            IPPAttribute(name: "printer-resolution-supported", syntax: .resolution,
                         values: [.resolution(IPPResolution(horizontal: 203, vertical: 203))]),
            IPPAttribute(name: "copies-supported", syntax: .rangeOfInteger, values: [.range(1...99)]),
            IPPAttribute(name: "printer-current-time", syntax: .dateTime, values: [.dateTime(Date(timeIntervalSince1970: 1_795_000_000))]),
            IPPAttribute(name: "printer-uuid", syntax: .uri, values: [.string("urn:uuid:6f1c3a52-2b7e-4c58-9a6d-0d9d4b1f0c11")]),
            IPPAttribute(name: "printer-alert", syntax: .octetString, values: [.octets([0x63, 0x6F, 0x64, 0x65, 0x3D, 0x00, 0xFF])]),
            IPPAttribute(name: "printer-geo-location", syntax: .unknown, values: [.outOfBand(.unknown)]),
            IPPAttribute(name: "media-col-database", syntax: .collection, values: [.collection([mediaSize]), .collection([mediaSize])]),
        ])
        let message = IPPMessage(code: 0, requestID: 42, groups: [Self.operation, printer])
        let (read, offset) = try IPPMessage.decode(message.encoded() + Array("%PDF".utf8))
        #expect(read == message)
        #expect(offset == message.encoded().count, "the document starts right after the end-of-attributes tag")
    }

    @Test func aGetPrinterAttributesRequestWrittenByHandIsRead() throws {
        // RFC 8010 §3.1: version 1.1, operation 0x000B, request-id 1, then the operation group.
        func field(_ tag: UInt8, _ name: String, _ value: String) -> [UInt8] {
            [tag, 0, UInt8(name.utf8.count)] + Array(name.utf8) + [0, UInt8(value.utf8.count)] + Array(value.utf8)
        }
        let bytes: [UInt8] = [1, 1, 0x00, 0x0B, 0, 0, 0, 1, 0x01]
            + field(0x47, "attributes-charset", "utf-8") + field(0x48, "attributes-natural-language", "en")
            + field(0x45, "printer-uri", "ipp://localhost/ipp/print/receipt")
            + field(0x44, "requested-attributes", "printer-description") + field(0x44, "", "media-col-database")
            + [0x03]
        let (request, offset) = try IPPMessage.decode(bytes)
        #expect(request.version == IPPVersion(major: 1, minor: 1) && request.code == 0x0B && request.requestID == 1)
        #expect(offset == bytes.count)
        let requested = try #require(request.attributes(in: .operation).first { $0.name == "requested-attributes" })
        #expect(requested.values == [.string("printer-description"), .string("media-col-database")])
    }

    @Test func whatIsNotIPPIsRefusedWithAReason() throws {
        let whole = IPPMessage(code: 0x0B, requestID: 1, groups: [Self.operation]).encoded()
        #expect(throws: IPPWireError.incomplete) { try IPPMessage.decode(Array(whole.dropLast(3))) }
        #expect(throws: IPPWireError.self) { try IPPMessage.decode(Array("GET / HTTP/1.1\r\n\r\n".utf8)) }
        #expect(throws: IPPWireError.incomplete) { try IPPMessage.decode([]) }

        // An attribute before any group tag (the fuzzer's first find): libcups reads it into no group.
        let stray: [UInt8] = [2, 0, 0, 2, 0, 0, 7, 1, 0x47, 0, 18] + Array("attributes-charset".utf8) + [0, 5] + Array("utf-8".utf8) + [3]
        #expect(throws: IPPWireError.outsideAnyGroup(attribute: "attributes-charset")) { try IPPMessage.decode(stray) }

        // A name that begins with a NUL byte reads as no name at all (the fuzzer's second find).
        let unnamed: [UInt8] = [2, 0, 0, 2, 0, 0, 0, 1, 0x01, 0x47, 0, 3, 0, 0x61, 0x62, 0, 5] + Array("utf-8".utf8) + [3]
        #expect(throws: IPPWireError.unnamedAttribute) { try IPPMessage.decode(unnamed) }

        var limits = IPPWireLimits()
        limits.attributes = 1
        #expect(throws: IPPWireError.tooManyAttributes(limit: 1)) { try IPPMessage.decode(whole, limits: limits) }
    }

    @Test func groupsOfOneKindInARowStayApart() throws {
        let job = { (id: Int) in IPPAttributeGroup(tag: .job, attributes: [
            IPPAttribute(name: "job-id", syntax: .integer, group: .job, values: [.integer(id)])]) }
        let reply = IPPMessage(code: 0, requestID: 5, groups: [Self.operation, job(1), job(2), job(3)])
        let (read, _) = try IPPMessage.decode(reply.encoded())
        #expect(read.groups.filter { $0.tag == .job }.count == 3)
        #expect(read == reply)
    }
}
