import Testing
import PrintModel

/// `printer-state` and `printer-state-reasons` as the printer reports them.
@Suite struct PrinterStateTests {
    @Test func ippEnumValues() {
        #expect(PrinterState(ippValue: 3) == .idle)
        #expect(PrinterState(ippValue: 4) == .processing)
        #expect(PrinterState(ippValue: 5) == .stopped)
        #expect(PrinterState(ippValue: 6) == nil)
        #expect(PrinterState(ippValue: 0) == nil)
        #expect(PrinterState.unreachable.description == "unreachable")
    }

    @Test("The severity suffix is stripped into the severity",
          arguments: [("media-empty-error", "media-empty", StateReason.Severity.error),
                      ("toner-low-warning", "toner-low", .warning),
                      ("media-empty-report", "media-empty", .report),
                      ("offline-report", "offline", .report),
                      ("x-error", "x", .error)])
    func suffix(raw: String, keyword: String, severity: StateReason.Severity) {
        let reason = StateReason(ippKeyword: raw)
        #expect(reason == StateReason(keyword: keyword, severity: severity))
        #expect(reason.description == keyword)
    }

    @Test("A keyword without a suffix, or that is nothing but one, is kept whole",
          arguments: ["media-jam", "none", "-error", "-warning", "-report", "error", "media-empty-errors", ""])
    func noSuffix(raw: String) {
        #expect(StateReason(ippKeyword: raw) == StateReason(keyword: raw, severity: nil))
    }

    @Test func onlyTheLastSuffixIsStripped() {
        #expect(StateReason(ippKeyword: "cover-open-error-report") == StateReason(keyword: "cover-open-error", severity: .report))
    }

    @Test func reasonsThatStopAKioskJobNeedAttention() {
        for raw in ["media-empty-error", "media-needed", "media-jam-error", "cover-open", "door-open-warning",
                    "offline-report", "paused", "shutdown", "toner-empty-error", "marker-supply-empty-error",
                    "input-tray-missing", "output-area-full-warning"] {
            #expect(StateReason(ippKeyword: raw).needsAttention, "\(raw)")
        }
        for raw in ["none", "toner-low-warning", "media-low-report", "moving-to-paused", "other", "-error",
                    "media-empty-soon"] {
            #expect(!StateReason(ippKeyword: raw).needsAttention, "\(raw)")
        }
    }

    @Test func attentionReasonsKeepOnlyThoseInTheirOrder() {
        let capabilities = PrinterCapabilities(name: "P", stateReasons: [
            StateReason(ippKeyword: "toner-low-warning"), StateReason(ippKeyword: "media-jam-error"),
            StateReason(ippKeyword: "none"), StateReason(ippKeyword: "cover-open"),
        ])
        #expect(capabilities.attentionReasons.map(\.keyword) == ["media-jam", "cover-open"])
        #expect(PrinterCapabilities(name: "P").attentionReasons.isEmpty)
    }
}
