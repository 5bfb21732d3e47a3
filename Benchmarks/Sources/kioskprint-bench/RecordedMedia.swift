import Foundation
import Simulator

/// The paper size a printer was asked for: media-col's `x-dimension` and
/// `y-dimension` in hundredths of a millimetre, read from a recording's
/// `IPP_MEDIA_COL` (`{media-size={x-dimension=8000 y-dimension=16079} ...}`)
/// or from the collection as cupsd's debug log prints it (the same syntax).
struct RecordedMedia: Sendable, Equatable {
    var x: Int
    var y: Int

    init(x: Int, y: Int) { self.x = x; self.y = y }

    init?(mediaCol text: String) {
        guard let x = text.firstMatch(of: /x-dimension=(\d+)/).flatMap({ Int($0.1) }),
              let y = text.firstMatch(of: /y-dimension=(\d+)/).flatMap({ Int($0.1) })
        else { return nil }
        self.init(x: x, y: y)
    }

    init?(job: ReceivedJob) {
        guard let text = job.attributes["IPP_MEDIA_COL"] else { return nil }
        self.init(mediaCol: text)
    }

    /// `y 16079 (x 8000)`: the length first, since the cut is what differs.
    var text: String { "y \(y) (x \(x))" }
}

/// When a recording printer recorded a job.
enum Recording {
    /// The modification time of the job's record file. The printer's `-c`
    /// script writes it (under a temporary name, then renamed, which keeps
    /// the time) after copying the document and before it exits, so it
    /// lies just before the printer calls the job completed. File times
    /// advance with the kernel's clock tick, so this is good to a few ms.
    static func recordedAt(jobID: Int, on printer: RunningPrinter) -> Date? {
        let path = printer.receivedDirectory.appendingPathComponent("job-\(jobID).record").path
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }
}
