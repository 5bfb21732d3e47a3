/// What a role does when a printer would print a job on other paper than
/// the job asked for: it answers Validate-Job or Print-Job with
/// `successful-ok-ignored-or-substituted-attributes` and names `media-col`,
/// `media` or `finishings` (LPrint holding a 4x6 label printer, given an
/// 80 mm receipt with its cut length, prints it on a 4x6 label).
public enum MediaChangeRule: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// The job goes to the role's next printer, or fails with the reason,
    /// and is never counted as printed: a receipt on a shipping label, or
    /// a boarding pass cut at the wrong length, is not what was asked for.
    case fail
    /// The job prints on what the printer has; the change is recorded in the
    /// job's reasons and logged at warning. For a role where any paper will do.
    case warn

    /// Every role fails such a job unless the configuration says `warn`.
    public static let defaultRule = MediaChangeRule.fail

    /// The attributes whose change puts the job on other paper, or cuts it
    /// elsewhere; a change to any other (a colour mode, say) is only noted.
    public static let paperAttributes: Set<String> = [
        "media-col", "media", "media-size", "media-type", "media-source", "finishings", "finishings-col",
    ]

    public var description: String { rawValue }
}
