import PrintModel
/// Finding a catalog entry from a model name as a printer reports it (the
/// IEEE 1284 `MDL:` value: `TM-T88VI-iHUB`, `ZTC ZD420-203dpi ZPL`) or as a
/// person types it (`--model tm-t88vi`, `zd420 300dpi`).
///
/// Case is ignored, and spaces and punctuation mostly are. A model name matches where a
/// word of the text begins, and must not run on into a longer model name:
/// `TM-T88V` does not match `TM-T88VI`, but `TSP143` matches `TSP143IIIU`
/// (a name ending in a digit may be followed by the letters of a variant).
/// The longest name wins. Models sold at several resolutions (the Zebras)
/// take the resolution from the text (`203dpi`, `-300`; a `200dpi` head is
/// the 203 dpi one) or from the caller.
extension ModelCatalog {
    /// The entry for a 1284 `MDL:` value; nil when no model matches or the
    /// resolution is needed and not given (the administrator then names the model).
    public static func entry(deviceModel: String, dpi: Int? = nil) -> CatalogEntry? {
        if case .found(let entry) = match(deviceModel, dpi: dpi) { return entry }
        return nil
    }

    /// The entry for a model name the administrator typed (`--model`).
    public static func entry(named name: String, dpi: Int? = nil) throws(CatalogError) -> CatalogEntry {
        switch match(name, dpi: dpi) {
        case .found(let entry): return entry
        case .ambiguous(let candidates): throw .ambiguousModel(name, candidates: candidates.map(\.name))
        case .none: throw .unknownModel(name, nearest: nearestNames(to: name))
        }
    }

    enum Match: Equatable {
        case found(CatalogEntry)
        case ambiguous([CatalogEntry])
        case none
    }

    static func match(_ text: String, dpi: Int?) -> Match {
        let words = ModelWords(text)
        var best: [CatalogEntry] = [], bestLength = 0
        for entry in entries {
            let length = entry.names.map { words.longestMatch(of: ModelWords($0)) }.max() ?? 0
            guard length > 0 else { continue }
            if length > bestLength { best = [entry]; bestLength = length }
            else if length == bestLength { best.append(entry) }
        }
        guard best.count > 1 else { return best.first.map(Match.found) ?? .none }
        guard let dpi = (dpi ?? words.resolution).map(normalisedDPI) else { return .ambiguous(best) }
        let atDPI = best.filter { $0.profile.dpi == dpi }
        return atDPI.count == 1 ? .found(atDPI[0]) : .ambiguous(best)
    }

    /// Thermal heads reported as 200 dpi are the 8 dots/mm, 203 dpi ones.
    static func normalisedDPI(_ dpi: Int) -> Int { dpi == 200 ? 203 : dpi }

    /// Up to three model names near `name`, closest first; empty when none is near.
    static func nearestNames(to name: String) -> [String] {
        let typed = ModelWords(name).letters
        let scored = entries.map { entry in
            (entry.name, entry.names.map { Spelling.distance(String(typed), String(ModelWords($0).letters)) }.min() ?? .max)
        }
        let limit = max(2, typed.count / 3)
        return scored.filter { $0.1 <= limit }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }
}

/// A model name reduced to its letters and digits (upper case), remembering
/// where the words of the original text ended.
struct ModelWords {
    let letters: [Character]
    /// `wordEnds[i]`: a space or punctuation followed letter `i` in the text.
    let wordEnds: [Bool]
    /// Indexes in `letters` where a word of the text begins.
    let wordStarts: [Int]
    /// A resolution written in the text: `203DPI`, or a lone 200, 203, 300 or 600.
    let resolution: Int?

    init(_ text: String) {
        var letters: [Character] = [], ends: [Bool] = [], starts: [Int] = []
        var words: [String] = [], current = ""
        var atWordStart = true
        for character in text.uppercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                if atWordStart { starts.append(letters.count); atWordStart = false }
                letters.append(character); ends.append(false); current.append(character)
            } else {
                if !ends.isEmpty { ends[ends.count - 1] = true }
                if !current.isEmpty { words.append(current); current = "" }
                atWordStart = true
            }
        }
        if !current.isEmpty { words.append(current) }
        self.letters = letters; wordEnds = ends; wordStarts = starts
        resolution = words.lazy.compactMap { word -> Int? in
            let digits = word.hasSuffix("DPI") ? String(word.dropLast(3)) : word
            guard let value = Int(digits), word.hasSuffix("DPI") || [200, 203, 300, 600].contains(value) else { return nil }
            return value
        }.first
    }

    /// The length of `name` where it matches at a word start without running
    /// on into a longer name; 0 when it matches nowhere.
    ///
    /// Inside the match, the text may break a word where the name does not
    /// only between letters and digits (`TM T88 VI` is `TM-T88VI`), so
    /// `TM-T88V-i` is not `TM-T88VI`.
    func longestMatch(of name: ModelWords) -> Int {
        let count = name.letters.count
        guard count > 0 else { return 0 }
        for start in wordStarts where start + count <= letters.count {
            guard Array(letters[start..<(start + count)]) == name.letters else { continue }
            let breaksAgree = (0..<(count - 1)).allSatisfy { i in
                !wordEnds[start + i] || name.wordEnds[i] || letters[start + i].isNumber != letters[start + i + 1].isNumber
            }
            guard breaksAgree else { continue }
            let end = start + count
            if end == letters.count || wordEnds[end - 1] { return count }
            // A name ending in a digit may run on into letters (TSP143 -> TSP143IIIU), not into digits.
            if name.letters.last?.isNumber == true && letters[end].isLetter { return count }
        }
        return 0
    }
}
