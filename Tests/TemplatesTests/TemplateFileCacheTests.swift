import Foundation
import Testing
@testable import Templates

/// Template files are read once and kept while they stay as they were on
/// disk; a changed file, or a changed sample beside it, is read again.
@Suite struct TemplateFileCacheTests {
    /// A templates folder of its own, removed by the caller.
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("template-cache-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `text` to `path` and dates it `age` in the past, as a file an integrator put there a while ago.
    static func write(_ text: String, to path: String, age: TimeInterval = 3_600) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
    }

    static let first = #"<template page="roll"><text>First</text></template>"#
    /// The same length as `first`: a change the size alone would not show.
    static let second = #"<template page="roll"><text>Other</text></template>"#

    @Test func anUnchangedFileIsNotReadAgain() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/note.xml"
        try Self.write(Self.first, to: path)
        let catalog = TemplateCatalog(folders: [folder])
        let found = try catalog.find("note")
        #expect(TemplateFileCache.shared.reads(of: path) == 1)
        for _ in 0..<3 { #expect(try catalog.find("note") == found) }
        #expect(TemplateFileCache.shared.reads(of: path) == 1)
        #expect(try catalog.find("note").parse().body.count == 1)
    }

    @Test func aChangedFileIsReadAgain() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/note.xml"
        try Self.write(Self.first, to: path)
        let catalog = TemplateCatalog(folders: [folder])
        #expect(try catalog.find("note").text == Self.first)
        // Same size, and dated back to an old time again: only the stamps' times and the change time tell.
        try Self.write(Self.second, to: path, age: 7_200)
        #expect(try catalog.find("note").text == Self.second)
        #expect(TemplateFileCache.shared.reads(of: path) == 2)
        #expect(try catalog.find("note").text == Self.second)
        #expect(TemplateFileCache.shared.reads(of: path) == 2)
    }

    @Test func aNewSampleBesideItIsSeen() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/note.xml"
        try Self.write(Self.first, to: path)
        let catalog = TemplateCatalog(folders: [folder])
        #expect(try catalog.find("note").sampleData == nil)
        try Self.write(#"{"name": "Ada"}"#, to: folder + "/note.sample.json")
        #expect(try catalog.find("note").sampleData == #"{"name": "Ada"}"#)
        #expect(TemplateFileCache.shared.reads(of: path) == 2)
    }

    @Test func aFileWrittenJustNowIsReadEachTime() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/note.xml"
        try Data(Self.first.utf8).write(to: URL(fileURLWithPath: path))
        let catalog = TemplateCatalog(folders: [folder])
        _ = try catalog.find("note")
        _ = try catalog.find("note")
        // A second write in the same clock tick would leave every stamp as it was: not trusted yet.
        #expect(TemplateFileCache.shared.reads(of: path) == 2)
    }

    @Test func theOriginIsTheCallersEvenFromMemory() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/receipt.xml"
        try Self.write(Self.first, to: path)
        #expect(try TemplateCatalog(folders: [folder]).find("receipt").origin == .overriding(path: path))
        #expect(try TemplateCatalog().find(nameOrFile: path).origin == .file(path: path))
        // A job's producer names the catalog only: the same path is refused unread.
        for name in [path, "../receipt", "receipt.xml", ".receipt", "a\u{0}b", ""] {
            #expect(throws: TemplateLookupError.notAName(name)) { try TemplateCatalog(folders: [folder]).find(name) }
        }
        #expect(TemplateFileCache.shared.reads(of: path) == 1)
    }
}
