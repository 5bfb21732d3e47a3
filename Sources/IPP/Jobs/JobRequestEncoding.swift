import CCups

extension PrintJobRequest {
    /// Adds the job's operation and job-template attributes to a Print-Job
    /// request. Runs on the exchange's worker thread; keeps no pointer.
    func encode(into request: OpaquePointer) {
        if let user = requestingUserName, !user.isEmpty {
            // The exchange already named the agent's user; a second
            // requesting-user-name would make the request malformed.
            var attribute = ippFindAttribute(request, "requesting-user-name", IPP_TAG_NAME)
            if attribute != nil {
                ippSetString(request, &attribute, 0, user)
            } else {
                ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, user)
            }
        }
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "job-name", nil, jobName)
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_MIMETYPE, "document-format", nil, documentFormat)

        if copies > 1 {
            ippAddInteger(request, IPP_TAG_JOB, IPP_TAG_INTEGER, "copies", Int32(clamping: copies))
        }
        if let printColorMode {
            ippAddString(request, IPP_TAG_JOB, IPP_TAG_KEYWORD, "print-color-mode", nil, printColorMode.rawValue)
        }
        if let printQuality {
            ippAddInteger(request, IPP_TAG_JOB, IPP_TAG_ENUM, "print-quality", Int32(printQuality.rawValue))
        }
        if let orientationRequested {
            ippAddInteger(request, IPP_TAG_JOB, IPP_TAG_ENUM, "orientation-requested",
                          Int32(orientationRequested.rawValue))
        }
        if let mediaCol {
            Self.add(mediaCol, to: request)
        } else if let media, !media.isEmpty {
            ippAddString(request, IPP_TAG_JOB, IPP_TAG_KEYWORD, "media", nil, media)
        }
        if !finishings.isEmpty {
            let values = finishings.map { Int32(clamping: $0) }
            ippAddIntegers(request, IPP_TAG_JOB, IPP_TAG_ENUM, "finishings", Int32(values.count), values)
        }
    }

    /// `media-col { media-size { x-dimension y-dimension } media-source media-type }`.
    private static func add(_ media: MediaCollection, to request: OpaquePointer) {
        guard let collection = ippNew(), let size = ippNew() else { return }
        ippAddInteger(size, IPP_TAG_ZERO, IPP_TAG_INTEGER, "x-dimension", Int32(clamping: media.xDimension))
        ippAddInteger(size, IPP_TAG_ZERO, IPP_TAG_INTEGER, "y-dimension", Int32(clamping: media.yDimension))
        // ippAddCollection keeps its own reference; ippDelete drops ours.
        ippAddCollection(collection, IPP_TAG_ZERO, "media-size", size)
        ippDelete(size)
        if let source = media.source, !source.isEmpty {
            ippAddString(collection, IPP_TAG_ZERO, IPP_TAG_KEYWORD, "media-source", nil, source)
        }
        if let type = media.type, !type.isEmpty {
            ippAddString(collection, IPP_TAG_ZERO, IPP_TAG_KEYWORD, "media-type", nil, type)
        }
        ippAddCollection(request, IPP_TAG_JOB, "media-col", collection)
        ippDelete(collection)
    }
}
