import Foundation

/// An independent reading of PWG raster, straight from PWG 5102.4 (big-endian
/// 1796-byte headers after the "RaS2" sync word, then line-repeat + PackBits
/// rows), so the tests do not only trust libcups to read what libcups wrote.
struct PWGRawDecoder {
    struct Page {
        var field: [Int: UInt32] = [:]   // header byte offset -> value
        var pageSizeName = ""
        var mediaClass = ""
        var pixels: [UInt8] = []
        func u32(_ offset: Int) -> UInt32 { field[offset] ?? 0 }
    }

    enum Failure: Error { case badSync, truncated }

    static func decode(_ data: Data) throws -> [Page] {
        let b = [UInt8](data)
        guard b.count >= 4, Array(b[0..<4]) == Array("RaS2".utf8) else { throw Failure.badSync }
        var at = 4
        var pages: [Page] = []
        func u32(_ o: Int) -> UInt32 { b[o..<o + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        func string(_ o: Int) -> String { String(decoding: b[o..<o + 64].prefix { $0 != 0 }, as: UTF8.self) }
        while at < b.count {
            guard at + 1796 <= b.count else { throw Failure.truncated }
            var page = Page()
            for offset in Swift.stride(from: 256, to: 516, by: 4) { page.field[offset] = u32(at + offset) }
            page.mediaClass = string(at)
            page.pageSizeName = string(at + 1732)
            at += 1796
            let height = Int(page.u32(376)), bpl = Int(page.u32(392)), bpp = Int(page.u32(388))
            let white: UInt8 = page.u32(400) == 18 ? 0xFF : 0x00
            let unit = max(1, bpp / 8)
            var rows = 0
            while rows < height {
                guard at < b.count else { throw Failure.truncated }
                let repeats = Int(b[at]) + 1; at += 1
                var line: [UInt8] = []
                while line.count < bpl {
                    guard at < b.count else { throw Failure.truncated }
                    let n = Int(b[at]); at += 1
                    if n == 128 {
                        line += [UInt8](repeating: white, count: bpl - line.count)
                    } else if n > 128 {
                        let count = min((257 - n) * unit, bpl - line.count)
                        line += b[at..<at + count]; at += count
                    } else {
                        let unitBytes = Array(b[at..<at + unit]); at += unit
                        for _ in 0..<(n + 1) where line.count < bpl { line += unitBytes }
                    }
                }
                for _ in 0..<repeats where rows < height { page.pixels += line; rows += 1 }
            }
            pages.append(page)
        }
        return pages
    }
}
