import KioskConfiguration
import Foundation
import Testing

/// `[retention]`: how long finished jobs are kept and how often the agent purges.
@Suite struct RetentionConfigurationTests: ReadsConfiguration {
    @Test func withoutTheTableAFewWeeksOfABusyTillAreKept() throws {
        let settings = try read("").get().retention
        #expect(settings == RetentionSettings(keepFor: .seconds(30 * 86_400), keepJobs: 20_000, purgeEvery: .seconds(3_600)))
    }

    @Test func everyKeyIsRead() throws {
        let settings = try read("""
            [retention]
            keep-for = "14d"
            keep-jobs = 5000
            purge-every = "15m"
            """).get().retention
        #expect(settings == RetentionSettings(keepFor: .seconds(14 * 86_400), keepJobs: 5_000, purgeEvery: .seconds(900)))
        // Days are a unit of their own; other units work too.
        #expect(try read("[retention]\nkeep-for = \"36h\"").get().retention.keepFor == .seconds(36 * 3_600))
    }

    @Test func wrongKeysAndValuesAreReportedByTheirPath() {
        let found = problems("""
            [retention]
            keep-fro = "30d"
            keep-jobs = -1
            purge-every = "10s"
            """)
        #expect(found.contains { $0.hasPrefix("retention.keep-fro: is not a known key here. Did you mean \"keep-for\"?") }, "\(found)")
        #expect(found.contains("retention.keep-jobs: -1 is out of range; give 0 to 100000000."), "\(found)")
        #expect(found.contains("retention.purge-every: \"10s\" is out of range; give 1m to 7d."), "\(found)")
        #expect(found.count == 3, "\(found)")

        let units = problems("[retention]\nkeep-for = \"30\"\nkeep-jobs = \"many\"")
        #expect(units.contains { $0.hasPrefix("retention.keep-for: \"30\" has no unit") }, "\(units)")
        #expect(units.contains { $0.hasPrefix("retention.keep-jobs: expected a whole number") }, "\(units)")
        #expect(problems("[retention]\nkeep-for = \"4w\"") == [#"retention.keep-for: "4w": unknown unit "w"; use ms, s, m, h or d."#])
        #expect(problems("retention = 3").first?.hasPrefix("retention: expected a table ([retention])") == true)
    }

    @Test(arguments: [("30d", Duration.seconds(30 * 86_400)), ("1.5d", .seconds(129_600)), ("24h", .seconds(86_400))])
    func daysAreADurationUnit(text: String, expected: Duration) throws {
        #expect(try ConfigValues.duration(text) == expected)
    }

    @Test func wholeDaysAreWrittenInDays() {
        #expect(ConfigValues.describe(.seconds(30 * 86_400)) == "30d")
        #expect(ConfigValues.describe(.seconds(36 * 3_600)) == "36h")
        #expect(ConfigValues.describe(.seconds(90)) == "90s")
    }
}
