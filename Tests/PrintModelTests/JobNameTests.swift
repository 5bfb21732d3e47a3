import Testing
import PrintModel

/// Issue 14: one rule for job names, so the marker always reaches the printer whole.
@Suite struct JobNameTests {
    @Test func controlCharactersAreRefusedWithTheirPlace() {
        #expect(JobName.problem("Receipt\u{0}4711") == "the job name has a control character (U+0000) at character 8; "
            + "a job name is one line of printable text, e.g. \"Receipt 4711, till 3\".")
        #expect(JobName.problem("Receipt\n4711")?.contains("(U+000A) at character 8") == true)
        #expect(JobName.problem("Receipt\u{1B}[2J")?.contains("(U+001B)") == true)
        #expect(JobName.problem("Receipt\u{2028}4711")?.contains("(U+2028)") == true)
        #expect(JobName.problem("  Receipt 4711, till 3\n") == nil)  // surrounding space is trimmed, as stored
        #expect(JobName.problem("Чек 4711 — касса 3") == nil)
    }

    @Test func aNameMayBe200BytesLeavingRoomForTheMarkerIn255() {
        #expect(JobName.problem(String(repeating: "a", count: 200)) == nil)
        let long = String(repeating: "a", count: 239)
        #expect(JobName.problem(long)?.hasPrefix("the job name is 239 bytes long, more than the 200 bytes a job name may be") == true)
        // Bytes, not characters: 101 Cyrillic letters are 202 bytes.
        #expect(JobName.problem(String(repeating: "ж", count: 101))?.contains("202 bytes") == true)
        #expect(JobName.maximumBytes + " [kp-\(Int.max)-x7f0qa]".utf8.count <= 255)
    }

    @Test func aNameKioskPrintMakesIsCleanedToPass() {
        #expect(JobName.cleaned("order\u{0}4711\t") == "order 4711")
        let cut = JobName.cleaned("Reprint of " + String(repeating: "ж", count: 200))
        #expect(cut.utf8.count <= JobName.maximumBytes && cut.hasPrefix("Reprint of жж"))
        #expect(JobName.problem(cut) == nil)
    }
}
