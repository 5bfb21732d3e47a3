// swift-tools-version:6.1
// KioskPrint: a headless printing agent for Linux kiosks and retail registers.
//
// Module flow (imports point down this list only):
//   PrintModel  - value types: printers, capabilities, job kinds, roles. No C, no I/O.
//   Timers      - waits cut short: libdispatch timers freed when cancelled; the wake pipe that ends a poll(2)
//   Discovery   - DNS-SD browsing through Avahi            (CAvahi)
//   IPP         - talking to printers through libcups      (CCups)
//   Store       - the SQLite database through GRDB
//   Templates   - the layout markup a kiosk integrator writes, parsed into a layout tree
//   Rendering   - pages drawn for one printer: raster (PWG, URF), PDF, PNG previews
//   PrinterLanguages - raw printers' command languages (ESC/POS, ZPL II) and model catalog. No C, no I/O.
//   PosMarkup   - the XML web POS prints with (Epson ePOS-Print, Star WebPRNT) read into receipt commands, drawn as a KioskPrint template, answered in each maker's codes
//   RawPrinters - raw printers' one home: URIs, links with deadlines (socket://, usb:// through usblp,
//                 serial:// through termios), IEEE 1284 device IDs, and the session that talks to one
//                 printer in its language: status, send and confirm, the drawer      (CRawIO)
//   Setup       - the administrator's work: find, contact, assign printers to roles
//   Spooler     - the durable queue's engine: draw, send, follow, retry, fail over
//   KioskConfiguration - the agent's TOML file, read and checked with every key's path
//   GPIO        - buttons and lights through libgpiod v1     (CGpiod)
//   Triggers    - what starts a job: watched folders (inotify), button presses; status lights
//   Service     - running under systemd: sd_notify (ready, status, watchdog)
//   Memory      - what the process gives back when idle (clean pages, the heap) and its ceiling   (CMemory)
//   RolePrinters - each role served as an IPP Everywhere printer: operations, attributes, jobs into the queue
//   RawRolePrinters - each role with raw-listen served as a raw printer: a till's port 9100 (ESC/POS, ZPL) in front of the queue
//   HTTPAPI     - the local HTTP API for POS applications (Hummingbird, generated from openapi.json), and the role printers' listener
//   HTTPAPIInProcess - the API's routes answering in this process, no listener: fuzzing and tests only
//   Agent       - `kioskprint run`: triggers, spooler, lights and the HTTP API as one service group
//   CommandLineOutput - what the command line shows: tables, capability views, JSON, error messages
//   kioskprint  - the command line: argument parsing, and printing what CommandLineOutput formats
//   Simulator   - loopback printers (ippeveprinter), a private Avahi, a GPIO stand-in: tests and the demo only
//   kioskprint-demo - the quick start: simulated printers, then the real agent against them
//   FuzzTargets - every reader of outside input as a function of bytes (kioskprint-fuzz, the corpus replay)
//   BenchSupport - the agent's lab and kiosk site, for kioskprint-startup-order and the benchmarks
//   kioskprint-startup-order - the agent profiled under callgrind: the link order the release build makes and uses
// docs/ARCHITECTURE.md's module table is checked against this file by DocsTests.
//
// The benchmarks behind docs/BENCHMARKS.md (kioskprint-bench) are a package
// of their own in Benchmarks/, so that building and testing the product does
// not compile them. It takes the modules it needs through the library
// products listed for it below; nothing else uses those products.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "KioskPrint",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "kioskprint", targets: ["kioskprint"]),
        .executable(name: "kioskprint-demo", targets: ["kioskprint-demo"]),
        .executable(name: "kioskprint-fuzz", targets: ["kioskprint-fuzz"]),
        .executable(name: "kioskprint-startup-order", targets: ["kioskprint-startup-order"]),
        // Modules for Benchmarks/ (a package of its own, which depends on this one by path).
        .library(name: "PrintModel", targets: ["PrintModel"]),
        .library(name: "Discovery", targets: ["Discovery"]),
        .library(name: "IPP", targets: ["IPP"]),
        .library(name: "Setup", targets: ["Setup"]),
        .library(name: "Simulator", targets: ["Simulator"]),
        .library(name: "Rendering", targets: ["Rendering"]),
        .library(name: "Templates", targets: ["Templates"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "Spooler", targets: ["Spooler"]),
        .library(name: "PosMarkup", targets: ["PosMarkup"]),
        .library(name: "PrinterLanguages", targets: ["PrinterLanguages"]),
        .library(name: "Memory", targets: ["Memory"]),
        .library(name: "BenchSupport", targets: ["BenchSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // SHA-256 of API token secrets (so the database never holds one) and of API requests.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // The HTTP API's one event loop thread (Hummingbird's default is NIO's group of one per core).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        // HTTP parts in the API's pipeline (RequestPace: slow and refused clients are closed).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        // GET /metrics: the agent counts through swift-metrics, Prometheus's text format is written by swift-prometheus.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // Thin system-library modules over Debian's -dev packages. Only the
        // wrapper modules above them import these; no C pointer leaves a wrapper.
        .systemLibrary(name: "CCups", path: "Sources/CLibraries/CCups"),
        .systemLibrary(name: "CAvahi", path: "Sources/CLibraries/CAvahi", pkgConfig: "avahi-client",
                       providers: [.apt(["libavahi-client-dev"])]),
        .systemLibrary(name: "CGpiod", path: "Sources/CLibraries/CGpiod", pkgConfig: "libgpiod",
                       providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CPangoCairo", path: "Sources/CLibraries/CPangoCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        .systemLibrary(name: "CZint", path: "Sources/CLibraries/CZint"),
        .systemLibrary(name: "CJpeg", path: "Sources/CLibraries/CJpeg", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CSystemd", path: "Sources/CLibraries/CSystemd", pkgConfig: "libsystemd",
                       providers: [.apt(["libsystemd-dev"])]),
        // ioctl wrappers (usblp's device ID, exclusive terminals): header only, libc links itself.
        .systemLibrary(name: "CRawIO", path: "Sources/CLibraries/CRawIO"),
        // libFuzzer's driver, weakly declared: linked only in the fuzzing build.
        .systemLibrary(name: "CFuzzDriver", path: "Sources/CLibraries/CFuzzDriver"),
        // The Memory module's C: unmapping shared code when idle (dl_iterate_phdr's GNU types), the malloc arena cap.
        .target(name: "CMemory", path: "Sources/CLibraries/CMemory"),

        .target(name: "PrintModel", swiftSettings: strict),
        .target(name: "Discovery", dependencies: ["PrintModel", "CAvahi", "Timers"], swiftSettings: strict),
        // Timers that give their memory back the moment they are cancelled, and the wake pipe
        // every thread blocked in C (Avahi, libgpiod, raw links) is stopped through.
        .target(name: "Timers", swiftSettings: strict),
        .target(name: "IPP", dependencies: ["PrintModel", "CCups", "Timers"], swiftSettings: strict),
        .target(name: "Store", dependencies: ["PrintModel", .product(name: "GRDB", package: "GRDB.swift"),
                                             .product(name: "Crypto", package: "swift-crypto")],
                swiftSettings: strict),
        // Raw printers' one home: URIs, links with deadlines, device IDs, and one printer talked to in its language.
        .target(name: "RawPrinters", dependencies: ["PrintModel", "PrinterLanguages", "CRawIO", "Timers"], swiftSettings: strict),
        .target(name: "Setup", dependencies: ["PrintModel", "Discovery", "IPP", "Store", "RawPrinters", "PrinterLanguages"], swiftSettings: strict),
        .target(name: "Templates", dependencies: ["PrintModel", .product(name: "Mustache", package: "swift-mustache")],
                resources: [.embedInCode("BuiltIn")],
                swiftSettings: strict),
        .target(name: "PrinterLanguages", dependencies: ["PrintModel"], swiftSettings: strict),
        .target(name: "Rendering", dependencies: ["PrintModel", "Templates", "CCups", "CPangoCairo", "CZint", "CJpeg"], swiftSettings: strict),
        // The GPIO stand-in is C source compiled at test time into an LD_PRELOAD library.
        .target(name: "Simulator", dependencies: ["PrintModel"],
                resources: [.embedInCode("GPIOStandIn/gpiod_standin.c")], swiftSettings: strict),
        .target(name: "Service", dependencies: ["CSystemd"], swiftSettings: strict),
        // What the process gives back and how much it may hold: clean pages, the heap, the ceiling.
        .target(name: "Memory", dependencies: ["CMemory"], swiftSettings: strict),
        .target(name: "KioskConfiguration", dependencies: ["PrintModel", "Templates", "TOMLKit"], swiftSettings: strict),
        .target(name: "GPIO", dependencies: ["PrintModel", "CGpiod", "Timers"], swiftSettings: strict),
        .target(name: "Triggers", dependencies: ["GPIO"], swiftSettings: strict),
        .target(name: "Spooler", dependencies: ["PrintModel", "Store", "IPP", "Rendering", "Timers", "Templates", "RawPrinters", "PrinterLanguages", "PosMarkup",
                                                .product(name: "Metrics", package: "swift-metrics")],
                swiftSettings: strict),
        // The server side is generated from openapi.json at build time, so the
        // document and the code cannot drift.
        .target(name: "RolePrinters", dependencies: ["PrintModel", "IPP", "Store", "Spooler", "Rendering", "PrinterLanguages",
                                                    .product(name: "Crypto", package: "swift-crypto")], swiftSettings: strict),
        // Epson's ePOS-Print XML (what web POS pages send a printer) read, and drawn as a KioskPrint template.
        .target(name: "PosMarkup", dependencies: ["PrintModel", "Templates", "PrinterLanguages"], swiftSettings: strict),
        // Each role with raw-listen served as a raw printer (ESC/POS or ZPL on a TCP port, as a printer's 9100).
        .target(name: "RawRolePrinters",
                dependencies: ["PrintModel", "PrinterLanguages", "KioskConfiguration", "Store", "Spooler", "RolePrinters",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "Metrics", package: "swift-metrics"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio")],
                swiftSettings: strict),
        .target(name: "HTTPAPI",
                dependencies: ["PrintModel", "Store", "Spooler", "Templates", "Rendering", "KioskConfiguration", "RolePrinters", "PosMarkup",
                               "PrinterLanguages",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "Crypto", package: "swift-crypto"),
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "HummingbirdCore", package: "hummingbird"),
                               .product(name: "HummingbirdTLS", package: "hummingbird"),
                               .product(name: "NIOSSL", package: "swift-nio-ssl"),
                               .product(name: "X509", package: "swift-certificates"),
                               .product(name: "SwiftASN1", package: "swift-asn1"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                               .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                resources: [.embedInCode("openapi.json"), .embedInCode("printer-icon.png")],
                swiftSettings: strict,
                plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]),
        // The API's routes answering requests in this process, with no listener: for the fuzzer and the tests.
        .target(name: "HTTPAPIInProcess",
                dependencies: ["HTTPAPI",
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOEmbedded", package: "swift-nio"),
                               .product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strict),
        .target(name: "Agent",
                dependencies: ["PrintModel", "KioskConfiguration", "Store", "Templates", "Rendering", "Spooler", "Setup", "Triggers", "GPIO",
                               "RolePrinters", "RawRolePrinters", "Discovery",
                               "Service", "Memory", "HTTPAPI",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "Metrics", package: "swift-metrics"),
                               .product(name: "Prometheus", package: "swift-prometheus"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                               .product(name: "UnixSignals", package: "swift-service-lifecycle")],
                swiftSettings: strict),
        // What the command line shows: tables, capability views, JSON and its error messages.
        .target(name: "CommandLineOutput", dependencies: ["PrintModel", "Setup", "Store"], swiftSettings: strict),
        // The shipped program: only what runs on a kiosk (DocsTests checks it never links Simulator).
        .executableTarget(
            name: "kioskprint",
            dependencies: ["PrintModel", "IPP", "Store", "Setup", "Templates", "Rendering", "Spooler", "Memory",
                           "KioskConfiguration", "GPIO", "Triggers", "Agent", "PrinterLanguages", "RawPrinters", "CommandLineOutput",
                           "HTTPAPI", "RawRolePrinters",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict),
        // The quick start: simulated printers on loopback, then the real agent (`kioskprint run`) against them.
        .executableTarget(
            name: "kioskprint-demo",
            dependencies: ["PrintModel", "Setup", "Store", "Templates", "Rendering", "PrinterLanguages", "Simulator", "CommandLineOutput",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict),
        // Every reader of outside input as a function of bytes, for libFuzzer
        // (kioskprint-fuzz, scripts/fuzz.sh) and for the corpus replay in the tests.
        .target(name: "FuzzTargets",
                dependencies: ["PrintModel", "Templates", "Rendering", "KioskConfiguration", "Spooler", "Agent", "IPP", "HTTPAPI", "HTTPAPIInProcess", "Store",
                               "RolePrinters", "PrinterLanguages", "PosMarkup",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strict),
        .executableTarget(name: "kioskprint-fuzz", dependencies: ["FuzzTargets", "CFuzzDriver"], swiftSettings: strict),
        // The agent's lab and kiosk site (printers, folders, a button), shared by kioskprint-startup-order
        // and the Benchmarks package's kioskprint-bench.
        .target(name: "BenchSupport",
                dependencies: ["PrintModel", "Setup", "Simulator", "Store", "Templates",
                               .product(name: "ArgumentParser", package: "swift-argument-parser")],
                swiftSettings: strict),
        // The agent profiled under callgrind on that site: the link order scripts/build-release.sh makes and uses.
        .executableTarget(name: "kioskprint-startup-order",
                          dependencies: ["BenchSupport", "Simulator", "Templates",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          swiftSettings: strict),

        .testTarget(name: "RolePrintersTests", dependencies: ["RolePrinters", "IPP", "PrintModel", "Store", "Spooler", "Templates",
                                                            "Simulator", "PrinterLanguages"],
                    swiftSettings: strict),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzTargets", "Simulator"], swiftSettings: strict),
        .testTarget(name: "PrintModelTests", dependencies: ["PrintModel"], swiftSettings: strict),
        .testTarget(name: "HTTPAPITests", dependencies: ["HTTPAPI", "HTTPAPIInProcess", "Spooler", "Store", "PrintModel", "Templates", "KioskConfiguration", "PrinterLanguages",
                                                        .product(name: "NIOCore", package: "swift-nio"),
                                                        .product(name: "NIOEmbedded", package: "swift-nio"),
                                                        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                                                        .product(name: "HTTPTypes", package: "swift-http-types"),
                                                        .product(name: "Hummingbird", package: "hummingbird"),
                                                        .product(name: "HummingbirdTesting", package: "hummingbird")],
                    swiftSettings: strict),
        .testTarget(name: "PrinterLanguagesTests", dependencies: ["PrinterLanguages", "PrintModel", "Simulator"], swiftSettings: strict),
        .testTarget(name: "PosMarkupTests", dependencies: ["PosMarkup", "PrinterLanguages", "Templates"], swiftSettings: strict),
        .testTarget(name: "TemplatesTests", dependencies: ["Templates", "PrintModel"], swiftSettings: strict),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "PrintModel", "Templates", "CCups", "Simulator"], swiftSettings: strict),
        .testTarget(name: "SpoolerTests", dependencies: ["Spooler", "Store", "IPP", "Rendering", "Templates", "PrintModel", "Simulator", "Setup", "PrinterLanguages", "RawPrinters",
                                                     .product(name: "GRDB", package: "GRDB.swift")],
                    swiftSettings: strict),
        .testTarget(name: "TriggersTests", dependencies: ["Triggers", "GPIO"], swiftSettings: strict),
        .testTarget(name: "GPIOTests", dependencies: ["GPIO", "Triggers", "PrintModel", "Simulator"], swiftSettings: strict),
        .testTarget(name: "KioskConfigurationTests", dependencies: ["KioskConfiguration", "PrintModel", "Templates"], swiftSettings: strict),
        .testTarget(name: "AgentTests",
                    dependencies: ["Agent", "KioskConfiguration", "Store", "Spooler", "Templates", "PrintModel", "Simulator", "Triggers", "GPIO", "IPP",
                                   "PrinterLanguages",
                                   .product(name: "Logging", package: "swift-log")],
                    swiftSettings: strict),
        .testTarget(name: "RawPrintersTests", dependencies: ["RawPrinters", "CRawIO", "Simulator", "PrintModel"], swiftSettings: strict),
        .testTarget(name: "StoreTests", dependencies: ["Store", "PrintModel", .product(name: "GRDB", package: "GRDB.swift")],
                    swiftSettings: strict),
        .testTarget(name: "IPPTests", dependencies: ["IPP", "PrintModel", "Simulator", "Rendering"], swiftSettings: strict),
        .testTarget(name: "DiscoveryTests", dependencies: ["Discovery", "PrintModel", "Simulator"],
                    swiftSettings: strict),
        .testTarget(name: "SetupTests", dependencies: ["Setup", "Store", "IPP", "PrintModel", "Simulator", "PrinterLanguages", "RawPrinters"],
                    swiftSettings: strict),
        .testTarget(name: "CLITests", dependencies: ["Store", "PrintModel", "Simulator", "Templates", "PrinterLanguages", "Memory",
                                                 .product(name: "GRDB", package: "GRDB.swift")],
                    swiftSettings: strict),
        // The simulated raw printers (ESC/POS, ZPL, serial line), checked against byte streams written from
        // the makers' references.
        .testTarget(name: "RawSimulatorTests", dependencies: ["Simulator", "PrintModel"], swiftSettings: strict),
        .testTarget(name: "MemoryTests", dependencies: ["Memory", "Simulator"], swiftSettings: strict),
        .testTarget(name: "TimersTests", dependencies: ["Timers"], swiftSettings: strict),
        // docs/ARCHITECTURE.md's module table checked against this file.
        .testTarget(name: "DocsTests", swiftSettings: strict),
        .testTarget(name: "SystemLibraryTests",
                    dependencies: ["CCups", "CAvahi", "CGpiod", "CPangoCairo", "CZint", "CSystemd", "CJpeg"],
                    swiftSettings: strict),
    ]
)
