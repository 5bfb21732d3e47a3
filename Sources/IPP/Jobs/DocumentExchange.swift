import CCups
import Foundation

extension IPPExchange {
    /// What `cupsDoIORequest` does with a file, from memory: `cupsSendRequest`
    /// sends the HTTP headers and the IPP request, `cupsWriteRequestData` the
    /// document after it in slices, `cupsGetResponse` reads the reply. The
    /// timeout callback of `perform` stays in force throughout.
    ///
    /// Frees `request`. Returns the reply, or nil when none came (the caller
    /// reads why from libcups' error state, as after `cupsDoRequest`).
    static func sendWithDocument(_ http: OpaquePointer, _ request: OpaquePointer, resource: String,
                                 document: Data) -> OpaquePointer? {
        defer { ippDelete(request) }
        // The Content-Length covers the request and the document together.
        var status = cupsSendRequest(http, request, resource, ippLength(request) + document.count)
        if status == HTTP_STATUS_CONTINUE && ippGetState(request) == IPP_STATE_DATA {
            status = document.withUnsafeBytes { bytes in write(bytes, to: http) }
        }
        // OK: the printer answered before taking all of the document (a busy
        // printer does); its reply is read all the same.
        guard status == HTTP_STATUS_CONTINUE || status == HTTP_STATUS_OK else {
            httpFlush(http)
            return nil
        }
        return cupsGetResponse(http, resource)
    }

    /// Slices small enough that a reply arriving mid-document is noticed soon.
    private static let slice = 64 * 1024

    private static func write(_ bytes: UnsafeRawBufferPointer, to http: OpaquePointer) -> http_status_t {
        guard let base = bytes.baseAddress else { return HTTP_STATUS_CONTINUE }
        var offset = 0
        var status = HTTP_STATUS_CONTINUE
        while offset < bytes.count && status == HTTP_STATUS_CONTINUE {
            let length = min(slice, bytes.count - offset)
            status = cupsWriteRequestData(http, base.advanced(by: offset).assumingMemoryBound(to: CChar.self), length)
            offset += length
        }
        return status
    }
}
