// Raster images (GS v 0, GS ( L / GS 8 L) and the process-ID response (GS ( H).
// Layouts from Epson's ESC/POS command reference: raster rows are packed
// eight dots to a byte, leftmost dot in the high bit, 1 = print.

extension EscPosEngine {
    /// GS v 0 m xL xH yL yH d1..dk: (xL + xH*256) bytes by (yL + yH*256) rows,
    /// printed at once. m = 0/48 normal, 1/49 double width, 2/50 double
    /// height, 3/51 both.
    mutating func rasterBitImage(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 8 else { return nil }
        let m = bytes[at: 3]
        let widthBytes = bytes.littleEndian(at: 4, count: 2), height = bytes.littleEndian(at: 6, count: 2)
        let length = 8 + widthBytes * height
        guard bytes.count >= length else { return nil }
        guard [0, 1, 2, 3, 48, 49, 50, 51].contains(m) else { return unknown(bytes, count: 4) }
        let mode = m % 48
        log("GS v 0 \(m)")
        if mode != 0 {
            record.problems.append("GS v 0 with m = \(m) (\(["", "double width", "double height", "quadruple"][Int(mode)])): "
                                   + "printed enlarged, not dot for dot")
        }
        let data = bytes[(bytes.startIndex + 8)..<(bytes.startIndex + length)]
        let image = DotBitmap(width: widthBytes * 8, height: height, packed: data)
            .scaled(x: mode & 1 != 0 ? 2 : 1, y: mode & 2 != 0 ? 2 : 1)
        printImage(image, command: "GS v 0")
        return length
    }

    /// GS ( L / GS 8 L: `parameters` start at m. fn 112 stores a raster image
    /// (a bx by c xL xH yL yH d1..dk, x and y in dots), fn 50 (and 2) prints
    /// what is stored; other functions are recorded.
    mutating func graphics(_ parameters: ArraySlice<UInt8>, command: String) {
        guard parameters.count >= 2 else { ignore("\(command) (too short)"); return }
        let fn = parameters[at: 1]
        switch fn {
        case 112:
            log("\(command) fn 112")
            guard parameters.count >= 10 else {
                record.problems.append("\(command) fn 112 with \(parameters.count) parameter bytes; it needs at least 10")
                return
            }
            let tone = parameters[at: 2], scaleX = Int(parameters[at: 3]), scaleY = Int(parameters[at: 4])
            let width = parameters.littleEndian(at: 6, count: 2), height = parameters.littleEndian(at: 8, count: 2)
            guard tone == 48 else {
                record.problems.append("\(command) fn 112 with a = \(tone): only monochrome (48) is simulated; not stored")
                return
            }
            let data = parameters.dropFirst(10)
            let expected = (width + 7) / 8 * height
            if data.count != expected {
                record.problems.append("\(command) fn 112: \(data.count) data bytes for \(width)x\(height) dots; "
                                       + "the reference's k is \(expected)")
            }
            storedGraphic = DotBitmap(width: width, height: height, packed: data)
                .scaled(x: max(1, min(2, scaleX)), y: max(1, min(2, scaleY)))
        case 50, 2:
            log("\(command) fn \(fn)")
            guard let image = storedGraphic else {
                record.problems.append("\(command) fn \(fn) printed nothing: no graphics were stored (fn 112)")
                return
            }
            storedGraphic = nil
            printImage(image, command: "\(command) fn \(fn)")
        default:
            ignore("\(command) fn \(fn)")
        }
    }

    /// GS ( H: `parameters` start at fn. fn 48 (m 48, d1..d4) asks for a
    /// process-ID response once the data before it is processed, which for
    /// printing data means printed: at once here, or when the printer can
    /// print again.
    mutating func response(_ parameters: ArraySlice<UInt8>, answers: inout [UInt8]) {
        guard parameters.count == 6, parameters[at: 0] == 48, parameters[at: 1] == 48 else {
            ignore("GS ( H fn \(parameters.first.map(String.init) ?? "?")")
            return
        }
        let id = Array(parameters.dropFirst(2))
        log("GS ( H fn 48 \(String(decoding: id, as: UTF8.self))")
        if state.canPrint {
            answers += processIDResponse(id)
            record.processIDResponses.append(String(decoding: id, as: UTF8.self))
        } else {
            heldProcessIDs.append(id)
        }
    }
}
