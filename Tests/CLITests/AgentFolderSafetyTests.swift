import Foundation
import Simulator
import Testing

extension AgentEndToEnd {
    /// Issue 14 through the real agent (run as root here): a link put in
    /// place of failed/ is never written through, and a watched folder
    /// deleted and made again is watched again.
    @Suite(.timeLimit(.minutes(3))) struct AgentFolderSafetyTests {
        @Test func aFailedFolderReplacedByALinkIsNotWrittenThroughAndTheLogSaysWhatToDo() async throws {
            let lab = try await PrinterLab.shared()
            let site = try AgentHarness(lab: lab)
            let pos = try site.watchReceiptFolder()
            let elsewhere = try site.makeFolder("elsewhere")
            let agent = try await site.start()
            defer { agent.stop() }
            #expect(rmdir(pos + "/failed") == 0)
            #expect(symlink(elsewhere, pos + "/failed") == 0)
            try site.drop("not a job", as: "note.txt", into: pos)
            try await pollUntil("the agent to say it will not write into failed/", within: .seconds(20)) {
                site.logText.contains("KioskPrint does not write into \(pos)/failed: it is a symbolic link")
            }
            #expect(site.logText.contains("chmod +t \(pos)"))
            #expect(site.files(in: elsewhere).isEmpty, "nothing written through the link")
            #expect(site.files(in: pos + "/processing") == ["note.txt"], "the file is kept where it was claimed")
            await site.stop(agent)
        }

        @Test func aWatchedFolderDeletedAndMadeAgainIsWatchedAgain() async throws {
            let lab = try await PrinterLab.shared()
            let site = try AgentHarness(lab: lab)
            let pos = try site.watchReceiptFolder()
            let agent = try await site.start()
            defer { agent.stop() }
            try FileManager.default.removeItem(atPath: pos)
            try await pollUntil("the agent to say the folder went", within: .seconds(20)) {
                site.logText.contains("The watched folder \(pos) was deleted or moved away")
            }
            try FileManager.default.createDirectory(atPath: pos, withIntermediateDirectories: false)
            try await pollUntil("the agent to watch it again", within: .seconds(20)) {
                site.logText.contains("The watched folder \(pos) is back and watched again.")
            }
            try site.drop("not a job", as: "note.txt", into: pos)
            try await pollUntil("the dropped file to be refused with its reason", within: .seconds(20)) {
                site.files(in: pos + "/failed") == ["note.txt", "note.txt.error"]
            }
            await site.stop(agent)
        }

        @Test func aNameThatIsNotUTF8IsMovedToFailedWithItsBytesAndLogged() async throws {
            let lab = try await PrinterLab.shared()
            let site = try AgentHarness(lab: lab)
            let pos = try site.watchReceiptFolder()
            let agent = try await site.start()
            defer { agent.stop() }
            // "caf\xe9.json": Latin-1, as an old POS might write it.
            let path = Array(pos.utf8) + Array("/caf".utf8) + [0xe9] + Array(".json".utf8) + [0]
            let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
            #expect(fd >= 0)
            close(fd)
            try await pollUntil("the file to be moved to failed/", within: .seconds(20)) {
                site.files(in: pos + "/failed").contains { $0.hasPrefix("unreadable-name-") && $0.hasSuffix(".error") }
            }
            let errorFile = try #require(site.files(in: pos + "/failed").first { $0.hasSuffix(".error") })
            let reason = try String(contentsOfFile: pos + "/failed/" + errorFile, encoding: .utf8)
            #expect(reason.contains("63 61 66 e9 2e 6a 73 6f 6e"), "\(reason)")
            // Logged once the file is moved: waited for, not read at once.
            try await pollUntil("the refusal to be logged", within: .seconds(20)) {
                site.logText.contains("refused unopened and moved to failed/")
            }
            #expect(site.files(in: pos).filter { !["done", "failed", "processing"].contains($0) }.isEmpty)
            await site.stop(agent)
        }
    }
}
