/// A look at TOML table headers before toml++ reads them: after `[` or `[[`
/// a header must name a key (a bare key, or a quoted one). toml++ asserts that
/// itself and aborts the process when it does not hold (`[[[button]]`, found
/// by scripts/fuzz.sh), so a header that breaks it is refused here with its
/// line and column. Strings and values spread over several lines (arrays,
/// multi-line strings) are skipped, so `[` inside them is never a header.
/// It reads Unicode scalars, as toml++ does, not Swift's Characters: "\r\n"
/// and "[" followed by a combining mark are single Characters.
enum TableHeaders {
    static func problem(in text: String) -> ConfigurationProblem? {
        let lines = Array(text.unicodeScalars).split(separator: "\n", omittingEmptySubsequences: false)
        var open: [Unicode.Scalar] = []  // brackets of values still open from earlier lines
        var multiline: String?  // the delimiter of a multi-line string still open
        for (index, line) in lines.enumerated() {
            let characters = Array(line)  // scalars; a "\r" before "\n" is whitespace to the scan
            var position = 0
            if multiline == nil, open.isEmpty {
                while position < characters.count, characters[position] == " " || characters[position] == "\t" { position += 1 }
                if position < characters.count, characters[position] == "[" {
                    var key = position + 1
                    if key < characters.count, characters[key] == "[" { key += 1 }
                    while key < characters.count, characters[key] == " " || characters[key] == "\t" { key += 1 }
                    guard key < characters.count, isKeyStart(characters[key]) else {
                        return ConfigurationProblem(line: index + 1, column: key + 1,
                            message: "this table header names no key: write [name] or [[name]] with a name of letters, "
                                + "digits, '-' and '_' (or in quotes).")
                    }
                    continue  // a header line holds no value to follow
                }
            }
            if let column = scan(characters, from: position, open: &open, multiline: &multiline) {
                return ConfigurationProblem(line: index + 1, column: column + 1,
                    message: "this bracket closes what was not opened with its pair: [ ] for a list, { } for an inline table.")
            }
        }
        return nil
    }

    private static func isKeyStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\"" || scalar == "'" || scalar == "_" || scalar == "-"
            || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// Follows strings, comments and brackets to the end of the line; returns
    /// the position of a closing bracket that does not match the last one
    /// opened (`box = [}` also trips an assertion in toml++), else nil.
    private static func scan(_ characters: [Unicode.Scalar], from start: Int, open: inout [Unicode.Scalar],
                             multiline: inout String?) -> Int? {
        var position = start
        func starts(_ token: String) -> Bool {
            let token = Array(token.unicodeScalars)
            return position + token.count <= characters.count && Array(characters[position..<position + token.count]) == token
        }
        while position < characters.count {
            if let delimiter = multiline {
                if starts(delimiter) { multiline = nil; position += 3 } else { position += delimiter == "\"\"\"" && characters[position] == "\\" ? 2 : 1 }
                continue
            }
            switch characters[position] {
            case "#": return nil
            case "\"", "'":
                let quote = characters[position]
                if starts(String(repeating: String(Character(quote)), count: 3)) {
                    multiline = String(repeating: String(Character(quote)), count: 3)
                    position += 3
                    continue
                }
                position += 1
                while position < characters.count, characters[position] != quote {
                    position += quote == "\"" && characters[position] == "\\" ? 2 : 1
                }
                position += 1
            case "[", "{":
                open.append(characters[position])
                position += 1
            case "]", "}":
                let opener: Unicode.Scalar = characters[position] == "]" ? "[" : "{"
                // A closer with nothing open is toml++'s to report; one that closes the other kind is ours.
                if let last = open.last, last != opener { return position }
                _ = open.popLast()
                position += 1
            default: position += 1
            }
        }
        return nil
    }
}
