import BenchSupport
import Foundation

/// The functions a program ran, read from a callgrind output file
/// (`valgrind --tool=callgrind --demangle=no`): what the startup order lists.
///
/// The format (valgrind's "Callgrind Format Specification") names the current
/// object with `ob=` and function with `fn=`, each either in full or, after
/// its first use, as `(id)`; `cob=`/`cfn=` name a call's target and share
/// those ids; a `calls=` line is followed by the call's inclusive cost, which
/// is not the caller's own.
struct CallgrindProfile: Sendable {
    /// Function name -> the instructions run in it (its own, calls excluded).
    var ownCost: [String: Int] = [:]
    /// Function name -> the object it belongs to (a path).
    var object: [String: String] = [:]

    static func read(_ path: String) throws -> CallgrindProfile {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchError("cannot read the callgrind profile \(path)")
        }
        var profile = CallgrindProfile()
        var objects = Names()
        var functions = Names()
        var currentObject = ""
        var currentFunction: String?
        var skipNextCost = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("ob=") {
                currentObject = objects.resolve(line.dropFirst(3))
            } else if line.hasPrefix("cob=") {
                _ = objects.resolve(line.dropFirst(4))
            } else if line.hasPrefix("fn=") {
                let name = functions.resolve(line.dropFirst(3))
                currentFunction = name
                profile.object[name] = currentObject
            } else if line.hasPrefix("cfn=") {
                _ = functions.resolve(line.dropFirst(4))
            } else if line.hasPrefix("calls=") {
                skipNextCost = true
            } else if let first = line.first, first.isNumber || first == "+" || first == "-" || first == "*" {
                if skipNextCost { skipNextCost = false; continue }
                let fields = line.split(separator: " ")
                if let function = currentFunction, fields.count >= 2, let cost = Int(fields[1]) {
                    profile.ownCost[function, default: 0] += cost
                }
            }
        }
        return profile
    }

    /// The functions of the object whose path ends with `objectSuffix` that
    /// ran, the most instructions first; unnamed ones (`0x...`) left out.
    func functions(inObjectEndingWith objectSuffix: String) -> [String] {
        ownCost.keys
            .filter { object[$0]?.hasSuffix(objectSuffix) == true && !$0.hasPrefix("0x") }
            .sorted { (ownCost[$0] ?? 0, $1) > (ownCost[$1] ?? 0, $0) }
    }

    /// Whether a function whose name begins with `prefix` ran.
    func ran(functionPrefixed prefix: String) -> Bool {
        ownCost.keys.contains { $0.hasPrefix(prefix) }
    }

    /// Two profiles' costs added, as one run of both.
    static func + (left: CallgrindProfile, right: CallgrindProfile) -> CallgrindProfile {
        var sum = left
        sum.ownCost.merge(right.ownCost, uniquingKeysWith: +)
        sum.object.merge(right.object) { first, _ in first }
        return sum
    }

    /// A compressed name table: `(12) name` defines id 12, `(12)` uses it.
    private struct Names {
        var byID: [Substring: String] = [:]

        mutating func resolve(_ text: Substring) -> String {
            guard text.hasPrefix("("), let close = text.firstIndex(of: ")") else { return String(text) }
            let id = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...].drop(while: { $0 == " " })
            if !rest.isEmpty { byID[id] = String(rest) }
            return byID[id] ?? String(text)
        }
    }
}
