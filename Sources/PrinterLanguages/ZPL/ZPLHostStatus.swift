import PrintModel

/// A Zebra printer's answer to `~HS` ("Host Status Return"): three strings,
/// each framed `<STX> ... <ETX><CR><LF>`, their fields separated by commas.
///
/// Fields from Zebra's "ZPL II Programming Guide", ~HS
/// (https://docs.zebra.com/us/en/printers/software/zpl-pg/zpl-commands/~hs4.html):
///
///     String 1  aaa,b,c,dddd,eee,f,g,h,iii,j,k,l
///               b paper out, c pause, dddd label length (dots), eee formats in
///               the receive buffer, f buffer full, g diagnostic mode, h partial
///               format, j corrupt RAM, k under temperature, l over temperature
///     String 2  mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www
///               o head up, p ribbon out, q thermal transfer, r print mode
///               (0 rewind, 1 peel-off, 2 tear-off, 3 cutter, 4 applicator...),
///               t label waiting, uuuuuuuu labels remaining in the batch
///     String 3  xxxx,y  (password, static RAM installed)
///
/// Zebra notes that newer firmware sends no answer at all while the media is
/// out, the ribbon out, the head open or the head too hot: a `~HS` that goes
/// unanswered is itself a sign of trouble, for the connection to judge.
public struct ZPLHostStatus: Hashable, Sendable {
    static let stx: UInt8 = 0x02, etx: UInt8 = 0x03

    /// `b`: out of paper.
    public var paperOut: Bool
    /// `c`: paused.
    public var paused: Bool
    /// `dddd`: the label length the printer uses, in dots.
    public var labelLengthDots: Int
    /// `eee`: formats waiting in the receive buffer.
    public var formatsInBuffer: Int
    /// `f`: the receive buffer is full.
    public var bufferFull: Bool
    /// `j`: the configuration was lost.
    public var corruptRAM: Bool
    /// `k`: the head is too cold.
    public var underTemperature: Bool
    /// `l`: the head is too hot.
    public var overTemperature: Bool
    /// `o`: the print head is up (open).
    public var headUp: Bool
    /// `p`: the ribbon has run out.
    public var ribbonOut: Bool
    /// `q`: thermal transfer (ribbon) mode rather than direct thermal.
    public var thermalTransfer: Bool
    /// `r`: the print mode character (`2` tear-off, `3` cutter...).
    public var printMode: Character
    /// `uuuuuuuu`: labels left in the batch being printed.
    public var labelsRemaining: Int

    /// The answer parsed; throws when it is not three framed strings with the documented fields.
    public init(answer: [UInt8]) throws(StatusAnswerError) {
        func fail(_ problem: String) -> StatusAnswerError {
            StatusAnswerError(language: .zpl, problem: problem, received: answer)
        }
        let strings = Self.framedStrings(in: answer)
        guard strings.count >= 3 else {
            throw fail("expected three STX...ETX strings, found \(strings.count)")
        }
        let first = strings[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let second = strings[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard first.count >= 12 else { throw fail("string 1 has \(first.count) fields, ~HS sends 12") }
        guard second.count >= 11 else { throw fail("string 2 has \(second.count) fields, ~HS sends 11") }

        func flag(_ fields: [String], _ index: Int, _ name: String) throws(StatusAnswerError) -> Bool {
            switch fields[index].withoutSpaces {
            case "0": return false
            case "1": return true
            default: throw fail("the \(name) flag is \"\(fields[index])\", not 0 or 1")
            }
        }
        func number(_ fields: [String], _ index: Int, _ name: String) throws(StatusAnswerError) -> Int {
            guard let value = Int(fields[index].withoutSpaces) else {
                throw fail("the \(name) field is \"\(fields[index])\", not a number")
            }
            return value
        }
        paperOut = try flag(first, 1, "paper out")
        paused = try flag(first, 2, "pause")
        labelLengthDots = try number(first, 3, "label length")
        formatsInBuffer = try number(first, 4, "formats in buffer")
        bufferFull = try flag(first, 5, "buffer full")
        corruptRAM = try flag(first, 9, "corrupt RAM")
        underTemperature = try flag(first, 10, "under temperature")
        overTemperature = try flag(first, 11, "over temperature")
        headUp = try flag(second, 2, "head up")
        ribbonOut = try flag(second, 3, "ribbon out")
        thermalTransfer = try flag(second, 4, "thermal transfer")
        printMode = second[5].withoutSpaces.first ?? "?"
        labelsRemaining = try number(second, 8, "labels remaining")
    }

    /// The status in the terms the spooler uses; a head left up reads as an
    /// open cover, a temperature out of range as a pause the printer ends itself.
    public var status: RawPrinterStatus {
        RawPrinterStatus(coverOpen: headUp, paperEnd: paperOut, paused: paused,
                         autoRecoverableError: underTemperature || overTemperature,
                         ribbonOut: ribbonOut, bufferFull: bufferFull)
    }

    /// The text between each STX and the ETX after it, in order.
    static func framedStrings(in bytes: [UInt8]) -> [String] {
        var strings: [String] = []
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            if byte == stx { start = index + 1 }
            else if byte == etx, let open = start {
                strings.append(String(decoding: bytes[open..<index], as: UTF8.self))
                start = nil
            }
        }
        return strings
    }
}

extension String {
    /// The text without leading or trailing spaces.
    fileprivate var withoutSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
