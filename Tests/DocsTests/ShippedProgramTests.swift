import Testing

/// The `kioskprint` a kiosk runs holds only what runs on a kiosk: read from
/// the package's dependency graph (`swift package dump-package`), its modules
/// are every module it reaches through its dependencies, and none of them is
/// one made for tests, fuzzing or the demo.
@Suite struct ShippedProgramTests {
    /// Modules of ours for tests, fuzzing and the demo, and outside products for tests.
    static let notForKiosks = ["Simulator", "FuzzTargets", "CFuzzDriver", "HTTPAPIInProcess", "BenchSupport",
                               "kioskprint-demo", "kioskprint-fuzz", "kioskprint-startup-order"]
    /// Outside products only tests and the fuzzer use.
    static let outsideNotForKiosks = ["NIOEmbedded", "HummingbirdTesting"]

    static func reach(from start: String, in targets: [ModuleMapTests.Target]) -> (modules: Set<String>, products: Set<String>) {
        let byName = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
        var modules: Set<String> = [], products: Set<String> = []
        var pending = [start]
        while let name = pending.popLast() {
            guard modules.insert(name).inserted, let target = byName[name] else { continue }
            for dependency in target.dependencies {
                if let next = dependency.name, byName[next] != nil { pending.append(next) }
                if let product = dependency.productName ?? dependency.name.flatMap({ byName[$0] == nil ? $0 : nil }) {
                    products.insert(product)
                }
            }
        }
        return (modules, products)
    }

    @Test func theShippedProgramReachesNoModuleMadeForTestsOrTheDemo() throws {
        let targets = try ModuleMapTests.manifest().targets
        let shipped = Self.reach(from: "kioskprint", in: targets)
        #expect(shipped.modules.contains("Agent") && shipped.modules.contains("Spooler"), "the graph was not read: \(shipped.modules)")
        for name in Self.notForKiosks {
            #expect(!shipped.modules.contains(name), "kioskprint links \(name), which is for tests or the demo")
        }
        for product in Self.outsideNotForKiosks {
            #expect(!shipped.products.contains(product), "kioskprint links \(product), which is for tests")
        }
        // The demo does reach the simulator: the check reads the graph it means to.
        #expect(Self.reach(from: "kioskprint-demo", in: targets).modules.contains("Simulator"))
    }
}
