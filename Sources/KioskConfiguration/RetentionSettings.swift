/// `[retention]`: how long finished jobs (and their spool files) are kept,
/// and how often the agent purges the older ones. A job is purged when it
/// is older than `keepFor` or beyond the newest `keepJobs` finished ones;
/// each role's last job always stays, for a reprint.
public struct RetentionSettings: Sendable, Equatable {
    /// Four weeks and 20,000 jobs: a busy till's few hundred receipts a day
    /// for a month, a few megabytes of database.
    public static let defaultKeepFor = Duration.seconds(30 * 86_400)
    public static let defaultKeepJobs = 20_000
    public static let defaultPurgeEvery = Duration.seconds(3_600)

    public var keepFor: Duration
    public var keepJobs: Int
    public var purgeEvery: Duration

    public init(keepFor: Duration = defaultKeepFor, keepJobs: Int = defaultKeepJobs, purgeEvery: Duration = defaultPurgeEvery) {
        self.keepFor = keepFor
        self.keepJobs = keepJobs
        self.purgeEvery = purgeEvery
    }
}
