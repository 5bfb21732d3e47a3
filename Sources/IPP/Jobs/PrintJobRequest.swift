public import Foundation

/// One document to print with IPP Print-Job, and how: the job's name, copies,
/// colour, quality, paper (with the cut length of a roll) and finishings.
///
/// A value: the spooler builds it from a stored job and can keep it for a
/// retry. Only the attributes set are sent, so the printer's defaults apply
/// to the rest.
public struct PrintJobRequest: Sendable, Hashable {
    /// The document, whole, in the format `documentFormat` names.
    public var document: Data
    /// The IPP `document-format`: `image/pwg-raster`, `image/urf`, `application/pdf`...
    public var documentFormat: String
    /// `job-name`: what the printer's panel and job lists show ("Receipt 4711, till 3").
    /// Required and never empty; the spooler also puts its marker here to find
    /// the job again after a crash.
    public var jobName: String
    /// `requesting-user-name`; nil sends the name of the user running the agent.
    public var requestingUserName: String?
    /// `copies`, at least 1. Sent only when above 1.
    public var copies: Int
    /// `print-color-mode`; nil leaves the printer's default.
    public var printColorMode: ColorMode?
    /// `print-quality`; nil leaves the printer's default.
    public var printQuality: Quality?
    /// `media-col`: the exact paper, e.g. an 80 mm roll cut at 123.45 mm. When
    /// set, `media` is not sent (a request may carry only one of the two).
    public var mediaCol: MediaCollection?
    /// `media`: a named size such as `iso_a4_210x297mm` or `roll_max_80x3000mm`,
    /// the fallback for a printer that refuses `media-col`.
    public var media: String?
    /// `finishings` enum values (PWG 5100.1 / RFC 8011): `Finishing.none` 3,
    /// `Finishing.trim` 11, `Finishing.trimAfterPages` 60 ... `trimAfterJob` 63.
    /// Empty sends none.
    public var finishings: [Int]
    /// `orientation-requested`; nil leaves it to the printer (and the document).
    public var orientationRequested: Orientation?

    public init(document: Data, documentFormat: String, jobName: String, requestingUserName: String? = nil,
                copies: Int = 1, printColorMode: ColorMode? = nil, printQuality: Quality? = nil,
                mediaCol: MediaCollection? = nil, media: String? = nil, finishings: [Int] = [],
                orientationRequested: Orientation? = nil) {
        self.document = document; self.documentFormat = documentFormat; self.jobName = jobName
        self.requestingUserName = requestingUserName; self.copies = copies
        self.printColorMode = printColorMode; self.printQuality = printQuality
        self.mediaCol = mediaCol; self.media = media; self.finishings = finishings
        self.orientationRequested = orientationRequested
    }

    /// The same job asking for paper by name instead of by `media-col`: what
    /// to send after a printer answered `.attributesNotSupported` naming media-col.
    public func withNamedMedia(_ keyword: String) -> PrintJobRequest {
        var copy = self
        copy.mediaCol = nil
        copy.media = keyword
        return copy
    }

    /// `print-color-mode` keywords.
    public enum ColorMode: String, Sendable, Hashable, CaseIterable {
        case monochrome, color, auto
    }

    /// `print-quality` enum values (RFC 8011 §5.2.13).
    public enum Quality: Int, Sendable, Hashable, CaseIterable {
        case draft = 3, normal = 4, high = 5
    }

    /// `orientation-requested` enum values (RFC 8011 §5.2.10).
    public enum Orientation: Int, Sendable, Hashable, CaseIterable {
        case portrait = 3, landscape = 4, reverseLandscape = 5, reversePortrait = 6, none = 7
    }

    /// `finishings` enum values a kiosk uses, as registered by IANA for IPP
    /// (RFC 8011 §5.2.6, PWG 5100.1). `trim` is 11: 16 is `laminate`.
    public enum Finishing {
        public static let none = 3
        /// Cut where the printer decides.
        public static let trim = 11
        public static let trimAfterPages = 60
        public static let trimAfterDocuments = 61
        public static let trimAfterCopies = 62
        public static let trimAfterJob = 63
    }

    /// The `media-col` members KioskPrint sends: the size (for a roll, its
    /// width and the cut length) and, optionally, where the paper comes from
    /// and what it is.
    public struct MediaCollection: Sendable, Hashable {
        /// Width in hundredths of a millimetre (`media-size` `x-dimension`).
        public var xDimension: Int
        /// Length in hundredths of a millimetre (`y-dimension`); on a roll, the cut length.
        public var yDimension: Int
        /// `media-source`, e.g. `main-roll`, `tray-1`.
        public var source: String?
        /// `media-type`, e.g. `labels`, `stationery`.
        public var type: String?

        public init(xDimension: Int, yDimension: Int, source: String? = nil, type: String? = nil) {
            self.xDimension = xDimension; self.yDimension = yDimension
            self.source = source; self.type = type
        }
    }

    /// Why the request cannot be sent as it is, or nil. Checked before any
    /// connection: a printer's answer to these would be less clear.
    var problem: String? {
        let name = jobName.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return "the job has no name; give it one the printer's panel can show" }
        // IPP `name` values are at most 255 octets (RFC 8011 §5.1.3).
        if jobName.utf8.count > 255 {
            return "the job name is \(jobName.utf8.count) bytes long; IPP allows 255"
        }
        if document.isEmpty { return "the document is empty" }
        if documentFormat.isEmpty { return "the document format is not given" }
        if copies < 1 { return "copies must be at least 1, not \(copies)" }
        if let size = mediaCol, size.xDimension <= 0 || size.yDimension <= 0 {
            return "the paper size \(size.xDimension) x \(size.yDimension) (hundredths of a mm) is not a size"
        }
        return nil
    }
}
