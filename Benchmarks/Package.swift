// swift-tools-version:6.1
// KioskPrint's benchmarks: a package of its own beside the product, as
// Hummingbird keeps its benchmarks, so that `swift build` and `swift test` of
// the product never compile them.
//
//   kioskprint-bench - the benchmarks behind docs/BENCHMARKS.md, one subcommand each
//
// The agent's lab and kiosk site (BenchSupport) come from the product's
// package, where kioskprint-startup-order, which the release build runs to
// order the agent's link, uses them too.
//
// The product is taken from the folder above by path: a change there that
// breaks the bench fails CI's `swift build --package-path Benchmarks`.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The product package's modules, by the library products it lists for this package.
func kioskPrint(_ module: String) -> Target.Dependency { .product(name: module, package: "KioskPrint") }

let package = Package(
    name: "KioskPrintBenchmarks",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "kioskprint-bench", targets: ["kioskprint-bench"]),
    ],
    dependencies: [
        .package(name: "KioskPrint", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Discovery and contact latency against a private PrinterLab, template
        // rendering (`render`, no root), printing end to end (`print`, root:
        // beside lp through a private cupsd), the agent as a service, each
        // beside the tool a site would otherwise use.
        .executableTarget(name: "kioskprint-bench",
                          dependencies: [kioskPrint("BenchSupport"),
                                         kioskPrint("PrintModel"), kioskPrint("Discovery"), kioskPrint("IPP"), kioskPrint("Setup"),
                                         kioskPrint("Simulator"), kioskPrint("Rendering"), kioskPrint("Templates"), kioskPrint("Store"),
                                         kioskPrint("Spooler"), kioskPrint("PrinterLanguages"), kioskPrint("Memory"), kioskPrint("PosMarkup"),
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          swiftSettings: strict),
    ]
)
