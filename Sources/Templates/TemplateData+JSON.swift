/// A strict JSON reader (RFC 8259) that knows where it is, so that malformed
/// data is reported at its line and column with what was expected there.
///
/// Why not Foundation: on Linux, JSONDecoder reports no position at all;
/// JSONSerialization gives only "around character N" with a vague reason,
/// accepts a trailing comma, and hands back `true` as an NSNumber that prints "1".
struct JSONReader {
    let bytes: [UInt8]
    let file: String
    private var offset = 0
    private var depth = 0
    /// Where the top-level value starts, for the "must be an object" error.
    private(set) var firstValueOffset = 0

    /// Deeper nesting than any job needs; the limit keeps hostile input from exhausting the stack.
    let maximumDepth: Int
    /// Most bytes read; more is refused before parsing.
    let maximumBytes: Int

    init(bytes: [UInt8], file: String, maximumBytes: Int = TemplateLimits.maximumDataBytes,
         maximumDepth: Int = TemplateLimits.maximumDataNesting) {
        self.bytes = bytes
        self.file = file
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }

    mutating func readDocument() throws(TemplateErrors) -> TemplateData {
        guard bytes.count <= maximumBytes else {
            throw diagnostic("the data is \(bytes.count) bytes, more than the "
                             + "\(TemplateLimits.describe(limit: maximumBytes)) a job's data may be. "
                             + "Send only the values the template prints, or split the job.", at: 0)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }  // a byte-order mark, as some Windows editors write
        try checkUTF8()
        skipWhitespace()
        guard offset < bytes.count else {
            throw diagnostic("the data is empty. It must be a JSON object, for example { \"total\": \"12.50\" }.", at: offset)
        }
        firstValueOffset = offset
        let value = try readValue()
        skipWhitespace()
        if offset < bytes.count {
            throw malformed("there is more after the end of the top-level value, starting with \(found())",
                            hint: "A file holds one JSON object: remove the rest, or put it inside the object.")
        }
        return value
    }

    /// Line and column (1-based, counting characters, not bytes) of a byte offset.
    func location(ofByte target: Int) -> SourceLocation {
        let end = min(target, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return SourceLocation(file: file, line: line, column: column)
    }

    // MARK: - Values

    private mutating func readValue() throws(TemplateErrors) -> TemplateData {
        guard let byte = peek() else {
            throw malformed("the data ends where a value should be", hint: "Check that every { and [ is closed.")
        }
        switch byte {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        case UInt8(ascii: "t"): return try readLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try readLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try readLiteral("null", .null)
        default:
            throw malformed("expected a value, found \(found())",
                            hint: "A value is a string in double quotes, a number, true, false, null, a list [ ] or an object { }.")
        }
    }

    private mutating func readObject() throws(TemplateErrors) -> TemplateData {
        try enter()
        offset += 1  // {
        var members: [String: TemplateData] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { offset += 1; depth -= 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                if peek() == UInt8(ascii: "}") {
                    throw malformed("a comma before } is not allowed in JSON", hint: "Remove the last comma.")
                }
                throw malformed("expected a name in double quotes, found \(found())",
                                hint: "Names are written in double quotes: { \"name\": \"value\" }.")
            }
            let name = try readString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw malformed("expected ':' after the name \"\(name)\", found \(found())",
                                hint: "Write a colon between a name and its value.")
            }
            offset += 1
            skipWhitespace()
            members[name] = try readValue()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"): offset += 1; depth -= 1; return .object(members)
            default:
                throw malformed("expected ',' or '}' after the value of \"\(name)\", found \(found())",
                                hint: "Check for a missing comma or quote near here.")
            }
        }
    }

    private mutating func readArray() throws(TemplateErrors) -> TemplateData {
        try enter()
        offset += 1  // [
        var items: [TemplateData] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { offset += 1; depth -= 1; return .array(items) }
        while true {
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                throw malformed("a comma before ] is not allowed in JSON", hint: "Remove the last comma.")
            }
            items.append(try readValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"): offset += 1; depth -= 1; return .array(items)
            default:
                throw malformed("expected ',' or ']' after item \(items.count) of a list, found \(found())",
                                hint: "Check for a missing comma or quote near here.")
            }
        }
    }

    private mutating func enter() throws(TemplateErrors) {
        depth += 1
        if depth > maximumDepth {
            throw malformed("the values are nested more than \(maximumDepth) deep, the most a job's data may have",
                            hint: "Flatten the data; a template cannot use this much nesting.")
        }
    }

    private mutating func readString() throws(TemplateErrors) -> String {
        let opening = offset
        offset += 1  // "
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw malformed("the string that starts at \(location(ofByte: opening).shortForm) is not closed",
                                hint: "Add the closing double quote.", at: opening)
            }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                offset += 1
                text += try readEscape()
            case 0..<0x20:
                throw malformed("a line break or control character inside a string",
                                hint: "Check for a missing closing quote on this line, or write a line break as \\n.")
            default:
                text.append(byte)
                offset += 1
            }
        }
    }

    /// The bytes one backslash escape stands for; `offset` is just past the backslash.
    private mutating func readEscape() throws(TemplateErrors) -> [UInt8] {
        guard let byte = peek() else {
            throw malformed("the data ends inside a string", hint: "Add the closing double quote.")
        }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return [byte]
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "u"):
            var code = try readHex4()
            if (0xD800..<0xDC00).contains(code) {  // a UTF-16 surrogate pair spells one character
                if bytes[offset...].starts(with: Array("\\u".utf8)) {
                    offset += 2
                    let low = try readHex4()
                    if (0xDC00..<0xE000).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
                }
            }
            return Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
        default:
            offset -= 2
            throw malformed("\\\(String(decoding: [byte], as: UTF8.self)) is not an escape JSON knows",
                            hint: "Write a backslash as \\\\; the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX.")
        }
    }

    private mutating func readHex4() throws(TemplateErrors) -> UInt32 {
        guard offset + 4 <= bytes.count,
              let code = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16) else {
            throw malformed("\\u must be followed by four hexadecimal digits", hint: "Write a character as \\u00e9, for example.")
        }
        offset += 4
        return code
    }

    private mutating func readNumber() throws(TemplateErrors) -> TemplateData {
        let start = offset
        var isInteger = true
        if peek() == UInt8(ascii: "-") { offset += 1 }
        if peek() == UInt8(ascii: "0"), let next = peek(1), isDigit(next) {
            throw malformed("a number cannot start with 0", hint: "Remove the leading zero, or write the value as a string in quotes.")
        }
        guard skipDigits() > 0 else { throw malformed("expected a digit, found \(found())", hint: "Write the number as -12 or -1.5.") }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard skipDigits() > 0 else { throw malformed("expected a digit after the decimal point, found \(found())", hint: "Write 12.0 or 12, not 12.") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard skipDigits() > 0 else { throw malformed("expected the exponent's digits, found \(found())", hint: "Write 1e3 or 1.5E-2.") }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isInteger {
            // A Double would print 12345678901234567890 as 1.2345678901234567e+19: refused rather than changed.
            guard let value = Int(text) else {
                throw malformed("\(text) is a whole number beyond 64 bits (more than \(Int.max) or less than \(Int.min))",
                                hint: "Write it as a string in quotes, \"\(text)\", so that it prints as written.", at: start)
            }
            return .integer(value)
        }
        guard let value = Double(text), value.isFinite else {
            throw malformed("\(text) is too large a number", hint: "Write it as a string in quotes.", at: start)
        }
        return .number(value)
    }

    private mutating func readLiteral(_ word: String, _ value: TemplateData) throws(TemplateErrors) -> TemplateData {
        guard bytes[offset...].starts(with: Array(word.utf8)) else {
            throw malformed("expected \(word) (or a value in double quotes), found \(found(word: true))",
                            hint: "true, false and null are written in lower case; text goes in double quotes.")
        }
        offset += word.utf8.count
        return value
    }

    // MARK: - Bytes

    private func peek(_ ahead: Int = 0) -> UInt8? {
        offset + ahead < bytes.count ? bytes[offset + ahead] : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func skipDigits() -> Int {
        let start = offset
        while let byte = peek(), isDigit(byte) { offset += 1 }
        return offset - start
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), [0x20, 0x09, 0x0A, 0x0D].contains(byte) { offset += 1 }
    }

    /// What stands at the current offset, for "found ...": a character, or a word with `word`.
    private func found(word: Bool = false) -> String {
        guard offset < bytes.count else { return "the end of the data" }
        let rest = String(decoding: bytes[offset..<min(offset + 40, bytes.count)], as: UTF8.self)
        if word {
            let letters = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !letters.isEmpty { return "\(letters)" }
        }
        return rest.first.map { "'\($0)'" } ?? "the end of the data"
    }

    /// Rejects bytes that are not UTF-8 before parsing, at the first bad byte.
    private func checkUTF8() throws(TemplateErrors) {
        var iterator = bytes[offset...].makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var position = offset
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): position += scalar.count
            case .emptyInput: return
            case .error:
                throw diagnostic("the data is not UTF-8 text (byte \(position + 1) cannot be read). "
                                 + "Save the file as UTF-8 in the editor or program that writes it.", at: position)
            }
        }
    }

    private func malformed(_ what: String, hint: String, at byte: Int? = nil) -> TemplateErrors {
        diagnostic("the JSON is malformed: \(what). \(hint)", at: byte ?? offset)
    }

    private func diagnostic(_ message: String, at byte: Int) -> TemplateErrors {
        TemplateErrors([TemplateDiagnostic(message, at: location(ofByte: byte))])
    }
}

extension SourceLocation {
    /// `line 3, column 7`, for a message that points at another place in the same file.
    var shortForm: String { "line \(line), column \(column)" }
}
