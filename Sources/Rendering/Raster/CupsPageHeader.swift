import CCups
import PrintModel

// Between Swift values and libcups' cups_page_header2_t. Nothing here is
// public: no C type leaves the module.

extension RasterPage {
    /// The complete header for this page. libcups copies only a fixed
    /// subset of it into a PWG file, and even less into URF (see RasterWriter).
    func cupsHeader(options: RasterPageOptions, totalPageCount: Int) -> cups_page_header2_t {
        var h = cups_page_header2_t()   // zeroed: every field we do not set is 0 / empty
        let media = options.mediaSize ?? RasterPageOptions.mediaSize(width: width, height: height, resolution: resolution)
        let xdpi = resolution.horizontal, ydpi = resolution.vertical

        kp_raster_set_media_type(&h, options.mediaType)
        kp_raster_set_media_color(&h, options.mediaColor)
        kp_raster_set_page_size_name(&h, options.pageSizeName ?? Self.selfDescribingName(media))

        h.CutMedia = cups_cut_t(options.cut.rawValue)
        h.HWResolution = (UInt32(xdpi), UInt32(ydpi))
        // PageSize in whole points from the media size in hundredths of a
        // millimetre, rounded down: the formula of libcups'
        // cupsRasterInitPWGHeader, so our header matches one libcups
        // would make for the same media.
        let pageWidth = UInt32(72 * media.width.hundredthsOfMillimetre / 2540)
        let pageHeight = UInt32(72 * media.height.hundredthsOfMillimetre / 2540)
        h.PageSize = (pageWidth, pageHeight)
        h.cupsPageSize = (Float(media.width.hundredthsOfMillimetre) * 72 / 2540,
                          Float(media.height.hundredthsOfMillimetre) * 72 / 2540)
        // The whole page is imageable: receipts and labels print edge to edge
        // of the bitmap, which is already inside the printer's margins.
        h.ImagingBoundingBox = (0, 0, pageWidth, pageHeight)
        // libcups' PWG writer does not copy ImageBox* from cupsInteger[3-6]:
        // it recomputes them as cupsImagingBBox * HWResolution / 72, rounded
        // down. Points chosen so that gives back exactly width x height dots.
        kp_raster_set_imaging_bbox(&h, 0, 0, Self.points(covering: width, dpi: xdpi),
                                   Self.points(covering: height, dpi: ydpi))
        h.MediaPosition = RasterPageOptions.mediaPosition(for: options.mediaSource)
        h.NumCopies = UInt32(max(1, options.copies))
        h.Orientation = CUPS_ORIENT_0   // the bitmap is already in feed direction

        h.cupsWidth = UInt32(width)
        h.cupsHeight = UInt32(height)
        h.cupsBitsPerColor = UInt32(format.bitsPerPixel)
        h.cupsBitsPerPixel = UInt32(format.bitsPerPixel)
        h.cupsBytesPerLine = UInt32(bytesPerLine)
        h.cupsColorOrder = CUPS_ORDER_CHUNKED
        // PWG 5102.4: black_1 is DeviceK (1 = black); sgray_8 is sGray
        // (0 = black), as libcups' cupsRasterInitPWGHeader maps them.
        h.cupsColorSpace = format == .black1 ? CUPS_CSPACE_K : CUPS_CSPACE_SW
        h.cupsNumColors = 1

        kp_raster_set_integer(&h, Int32(CUPS_RASTER_PWG_TotalPageCount), UInt32(totalPageCount))
        kp_raster_set_integer(&h, Int32(CUPS_RASTER_PWG_CrossFeedTransform), 1)
        kp_raster_set_integer(&h, Int32(CUPS_RASTER_PWG_FeedTransform), 1)
        kp_raster_set_integer(&h, Int32(CUPS_RASTER_PWG_ImageBoxLeft), 0)
        kp_raster_set_integer(&h, Int32(CUPS_RASTER_PWG_ImageBoxTop), 0)
        kp_raster_set_integer(&h, Int32(CUPS_RASTER_PWG_ImageBoxRight), UInt32(width))
        kp_raster_set_integer(&h, Int32(CUPS_RASTER_PWG_ImageBoxBottom), UInt32(height))
        kp_raster_set_integer(&h, Int32(CUPS_RASTER_PWG_AlternatePrimary), 0xFFFFFF)  // white
        return h
    }

    /// PWG 5101.1 self-describing media name, by libcups itself.
    static func selfDescribingName(_ media: RasterPageOptions.MediaSize) -> String {
        var keyword = [CChar](repeating: 0, count: 128)
        let ok = pwgFormatSizeName(&keyword, keyword.count, "custom", nil,
                                   Int32(media.width.hundredthsOfMillimetre),
                                   Int32(media.height.hundredthsOfMillimetre), "mm")
        guard ok != 0 else { return "" }
        return String(decoding: keyword.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The smallest float number of points p with Int(p * dpi / 72) == dots.
    static func points(covering dots: Int, dpi: Int) -> Float {
        var p = Float(Double(dots) * 72 / Double(dpi))
        while UInt32(Double(p) * Double(dpi) / 72) < UInt32(dots) { p = p.nextUp }
        return p
    }
}

extension RasterHeader {
    init(_ h: cups_page_header2_t) {
        var h = h
        mediaClass = Self.string(&h.MediaClass)
        mediaColor = Self.string(&h.MediaColor)
        mediaType = Self.string(&h.MediaType)
        outputType = Self.string(&h.OutputType)
        pageSizeName = Self.string(&h.cupsPageSizeName)
        renderingIntent = Self.string(&h.cupsRenderingIntent)
        cutMedia = h.CutMedia.rawValue
        duplex = h.Duplex.rawValue != 0
        resolution = Resolution(Int(h.HWResolution.0), Int(h.HWResolution.1))
        imagingBoundingBox = [h.ImagingBoundingBox.0, h.ImagingBoundingBox.1,
                              h.ImagingBoundingBox.2, h.ImagingBoundingBox.3]
        mediaPosition = h.MediaPosition
        numCopies = h.NumCopies
        orientation = h.Orientation.rawValue
        pageSize = [h.PageSize.0, h.PageSize.1]
        width = Int(h.cupsWidth)
        height = Int(h.cupsHeight)
        bitsPerColor = Int(h.cupsBitsPerColor)
        bitsPerPixel = Int(h.cupsBitsPerPixel)
        bytesPerLine = Int(h.cupsBytesPerLine)
        colorOrder = h.cupsColorOrder.rawValue
        colorSpace = h.cupsColorSpace.rawValue
        numColors = Int(h.cupsNumColors)
        func integer(_ i: Int32) -> UInt32 { kp_raster_get_integer(&h, i) }
        totalPageCount = integer(Int32(CUPS_RASTER_PWG_TotalPageCount))
        crossFeedTransform = integer(Int32(CUPS_RASTER_PWG_CrossFeedTransform))
        feedTransform = integer(Int32(CUPS_RASTER_PWG_FeedTransform))
        imageBox = [integer(Int32(CUPS_RASTER_PWG_ImageBoxLeft)), integer(Int32(CUPS_RASTER_PWG_ImageBoxTop)),
                    integer(Int32(CUPS_RASTER_PWG_ImageBoxRight)), integer(Int32(CUPS_RASTER_PWG_ImageBoxBottom))]
        alternatePrimary = integer(Int32(CUPS_RASTER_PWG_AlternatePrimary))
        printQuality = integer(Int32(CUPS_RASTER_PWG_PrintQuality))
    }

    // A fixed C char array (imported as a tuple) up to its first NUL.
    private static func string<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
