// kioskprint-fuzz TARGET [libFuzzer options] [CORPUS...]
// KIOSKPRINT_FUZZ_TARGET=TARGET kioskprint-fuzz [libFuzzer options] [CORPUS...]
//
// Built with `-sanitize=fuzzer` (scripts/fuzz.sh), it runs libFuzzer on one
// of KioskPrint's readers of outside input. Built plainly, it replays the
// files and folders given through the same reader, one by one, and says which
// it is reading, so a crash names its input.
import CFuzzDriver
import Foundation
import FuzzTargets

/// The target: the first argument, else KIOSKPRINT_FUZZ_TARGET. libFuzzer
/// runs itself again for -merge=1 and -fork with its own arguments only, so
/// scripts name the target in the environment, which those runs inherit.
enum Selected {
    static let named = CommandLine.arguments.dropFirst().first.flatMap(FuzzTarget.init(rawValue:))
    static let target: FuzzTarget? = named
        ?? ProcessInfo.processInfo.environment["KIOSKPRINT_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:))
}

guard let target = Selected.target else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: kioskprint-fuzz TARGET [libFuzzer options] [CORPUS...]\nTARGET is one of: \(names)\n".utf8))
    exit(64)
}
setenv("SWIFT_BACKTRACE", "enable=no", 0)  // let libFuzzer, not Swift's backtracer, report a crash
let rest = Array(CommandLine.arguments.dropFirst(Selected.named == nil ? 1 : 2))

if kp_fuzzer_linked() != 0 {
    let arguments = [CommandLine.arguments[0]] + rest
    var count = Int32(arguments.count)
    var pointers = arguments.map { strdup($0) } + [nil]
    let status = pointers.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var base = buffer.baseAddress
        return kp_fuzzer_run(&count, &base) { data, size in
            Selected.target?.run(size == 0 || data == nil ? Data() : Data(bytes: data!, count: size))
            return 0
        }
    }
    pointers.forEach { free($0) }
    exit(status)
}

// Replay: every file named, and every file in every folder named.
var files: [String] = []
for path in rest where !path.hasPrefix("-") {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
    if isFolder.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        files += names.sorted().map { (path as NSString).appendingPathComponent($0) }
    } else {
        files.append(path)
    }
}
for file in files {
    guard let data = FileManager.default.contents(atPath: file) else { continue }
    print("\(target.rawValue): \(file) (\(data.count) bytes)")
    target.run(data)
}
print("\(target.rawValue): \(files.count) input(s) replayed without a crash.")
