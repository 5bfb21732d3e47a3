import Foundation
import FuzzTargets
import Simulator
import Testing

/// Every input the fuzzers kept (Tests/Fuzz/corpus/TARGET, grown by
/// scripts/fuzz.sh) replayed through the same readers: a case the fuzzer
/// once found to crash, hang or blow up stays fixed, on every CI run.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus")

    @Test(arguments: FuzzTarget.allCases)
    func theKeptInputsAreReadWithoutACrash(_ target: FuzzTarget) async throws {
        let folder = Self.corpus.appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty, "the \(target.rawValue) corpus is empty: seed it with real inputs")
        // Thousands of inputs take seconds: read on a thread of their own, not on
        // one of the two cooperative threads every other test needs.
        let replayed = try await offloaded {
            for name in names {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                target.run(data)  // a crash or a trap fails the whole run; the fuzzer's log names the input
            }
            return names.count
        }
        #expect(replayed == names.count)
    }
}
