import Foundation
import GRDB
import Testing
import PrintModel
@testable import Store

/// A fresh database file in its own temporary folder.
func temporaryStorePath() -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskprint-store-\(UUID().uuidString)")
    return folder.appendingPathComponent("kioskprint.sqlite").path
}

func capabilities(_ name: String, kinds: Set<JobKind> = [.receipt, .roll]) -> PrinterCapabilities {
    PrinterCapabilities(name: name, location: "Front", makeAndModel: "Sim", uuid: UUID().uuidString.lowercased(),
                        kinds: kinds, rolls: [RollMedia(width: .millimetres(80),
                                                        cutLengths: .millimetres(25) ... .millimetres(3000))])
}

@Suite struct StoreTests {
    let receipt = try! Role("receipt")
    let coupon = try! Role("coupon")

    /// Saves printer `name` (at `ipp://NAME/ipp/print`, lowercased) in `role`.
    @discardableResult
    func assign(_ name: String, in store: KioskStore, to role: Role, as place: RolePlace) async throws -> AssignmentOutcome {
        try await store.assign(uri: "ipp://\(name.lowercased())/ipp/print", serviceName: nil,
                               capabilities: capabilities(name), to: role, as: place)
    }

    @Test func createsFileOwnerOnlyInWALMode() async throws {
        let path = temporaryStorePath()
        let store = try KioskStore(path: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let folderMode = try FileManager.default.attributesOfItem(
            atPath: (path as NSString).deletingLastPathComponent)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        let journal = try await store.database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
    }

    @Test func addListRemoveRoundTrip() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        let caps = capabilities("Counter TM-80")
        let outcome = try await store.assign(uri: "ipp://10.0.0.5:631/ipp/print", serviceName: "Counter",
                                             capabilities: caps, to: receipt, as: .primary)
        #expect(outcome.replaced == nil)
        #expect(outcome.assignment.isPrimary)

        // A new store on the same file sees exactly what was saved, capabilities included.
        let reopened = try KioskStore(path: store.path)
        let listed = try await reopened.assignments()
        #expect(listed.count == 1)
        #expect(listed[0].role == receipt)
        #expect(listed[0].printer.capabilities == caps)
        #expect(listed[0].printer.uri == "ipp://10.0.0.5:631/ipp/print")
        #expect(listed[0].printer.serviceName == "Counter")

        let found = try await reopened.findPrinter("counter tm-80")
        let left = try await reopened.remove(printerID: found.id)
        #expect(left == [receipt])
        #expect(try await reopened.assignments().isEmpty)
        #expect(try await reopened.savedPrinters().isEmpty)
    }

    @Test func aNewPrimaryReplacesTheOldAndBackupsKeepTheirOrder() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        try await assign("A", in: store, to: receipt, as: .primary)
        try await assign("B", in: store, to: receipt, as: .backup)
        try await assign("C", in: store, to: receipt, as: .backup)
        var names = try await store.assignments(for: receipt).map(\.printer.name)
        #expect(names == ["A", "B", "C"])

        let outcome = try await assign("D", in: store, to: receipt, as: .primary)
        #expect(outcome.replaced?.name == "A")
        names = try await store.assignments(for: receipt).map(\.printer.name)
        #expect(names == ["D", "B", "C"])
        // A, in no role now, is forgotten.
        #expect(try await store.savedPrinters().map(\.name) == ["B", "C", "D"])

        // Promoting a backup moves it to the front; the others close up.
        try await assign("C", in: store, to: receipt, as: .primary)
        names = try await store.assignments(for: receipt).map(\.printer.name)
        #expect(names == ["C", "B"])
        #expect(try await store.assignments(for: receipt).map(\.position) == [0, 1])
    }

    @Test func onePrinterServesTwoRolesAndSurvivesLeavingOne() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        try await assign("A", in: store, to: receipt, as: .primary)
        try await assign("A", in: store, to: coupon, as: .primary)
        #expect(try await store.savedPrinters().count == 1)
        let a = try await store.findPrinter("ipp://a/ipp/print")
        #expect(try await store.remove(printerID: a.id, from: coupon) == [coupon])
        #expect(try await store.assignments().map(\.role) == [receipt])
        #expect(try await store.savedPrinters().count == 1)
    }

    @Test func addingTheSamePrinterTwiceToARoleIsRefusedWithItsPlace() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        try await assign("A", in: store, to: receipt, as: .primary)
        await #expect(throws: StoreError.alreadyInRole(printer: "A", role: "receipt", rank: "primary")) {
            try await assign("A", in: store, to: receipt, as: .backup)
        }
    }

    @Test func unknownPrinterSaysHowToListThem() async throws {
        let store = try KioskStore(path: temporaryStorePath())
        await #expect {
            try await store.findPrinter("nope")
        } throws: { error in
            "\(error)".contains("kioskprint printers list") && "\(error)".contains("'nope'")
        }
    }

    @Test func twoConnectionsWriteAtOnce() async throws {
        // The CLI and the agent each open the file; concurrent writes wait, never fail.
        let path = temporaryStorePath()
        let first = try KioskStore(path: path)
        let second = try KioskStore(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    _ = try await store.assign(uri: "ipp://p\(index)/ipp/print", serviceName: nil,
                                               capabilities: capabilities("P\(index)"),
                                               to: try Role("role-\(index)"), as: .primary)
                }
            }
            try await group.waitForAll()
        }
        #expect(try await first.savedPrinters().count == 40)
    }

    @Test func anUnwritablePlaceNamesTheFileAndTheWayOut() {
        #expect {
            try KioskStore(path: "/proc/kioskprint/kioskprint.sqlite")
        } throws: { error in
            "\(error)".contains("/proc/kioskprint/kioskprint.sqlite") && "\(error)".contains("--database")
        }
    }
}

@Suite struct DatabaseLocationTests {
    @Test func explicitBeatsEnvironmentBeatsServiceBeatsUser() {
        let env = ["KIOSKPRINT_DATABASE": "/env.sqlite", "STATE_DIRECTORY": "/var/lib/kp:/other"]
        #expect(DatabaseLocation.resolve(explicit: "/x.sqlite", environment: env, isRoot: true, home: "/h") == "/x.sqlite")
        #expect(DatabaseLocation.resolve(environment: env, isRoot: false, home: "/h") == "/env.sqlite")
        #expect(DatabaseLocation.resolve(environment: ["STATE_DIRECTORY": "/var/lib/kp:/other"], isRoot: false, home: "/h")
                == "/var/lib/kp/kioskprint.sqlite")
        #expect(DatabaseLocation.resolve(environment: [:], isRoot: true, home: "/root")
                == "/var/lib/kioskprint/kioskprint.sqlite")
        #expect(DatabaseLocation.resolve(environment: [:], isRoot: false, home: "/home/ann")
                == "/home/ann/.local/state/kioskprint/kioskprint.sqlite")
        #expect(DatabaseLocation.resolve(environment: ["XDG_STATE_HOME": "/s"], isRoot: false, home: "/home/ann")
                == "/s/kioskprint/kioskprint.sqlite")
    }
}
