import Foundation
import GRDB
import Testing
@testable import Store

/// `StoredDate` must write exactly GRDB's text for a date: rows written
/// either way are read, sorted and compared in SQL together.
@Suite struct StoredDateTests {
    static func grdbText(_ date: Date) -> String? {
        String.fromDatabaseValue(date.databaseValue)
    }

    @Test(arguments: [
        0.0,                     // 1970-01-01 00:00:00.000
        0.0004, 0.0005, 0.0009999, 0.999, 0.9995, 0.99999999,
        951_782_400.5,           // 2000-02-29, a leap day
        1_704_067_199.9999,      // the last instant of 2023
        1_798_675_200.123,       // 2026-12-31
        4_102_444_800,           // 2100-01-01, not a leap year
        253_402_300_799.999,     // 9999-12-31 23:59:59.999
    ])
    func theTextIsGRDBsOwn(_ secondsSince1970: Double) {
        let date = Date(timeIntervalSince1970: secondsSince1970)
        #expect(StoredDate.text(date) == Self.grdbText(date))
    }

    @Test func aHundredThousandDatesOfThisCenturyReadTheSame() {
        var generator = SystemRandomNumberGenerator()
        var differing: [Double] = []
        for _ in 0..<100_000 {
            let seconds = Double.random(in: 0..<4_102_444_800, using: &generator)
            let date = Date(timeIntervalSince1970: seconds)
            if StoredDate.text(date) != Self.grdbText(date) { differing.append(seconds) }
        }
        #expect(differing.count == 0, "\(differing.count) differ, first: \(Array(differing.prefix(5)))")
    }

    @Test func datesBeforeNineteenSeventyAreLeftToGRDB() {
        let date = Date(timeIntervalSince1970: -1.5)
        #expect(StoredDate.text(date) == nil)
        #expect(String.fromDatabaseValue(StoredDate(date).databaseValue) == Self.grdbText(date))
    }

    @Test func itReadsBackAsTheDateGRDBReads() throws {
        let date = Date(timeIntervalSince1970: 1_798_675_200.123)
        let read = try #require(StoredDate.fromDatabaseValue(StoredDate(date).databaseValue))
        #expect(read.date == Date.fromDatabaseValue(date.databaseValue))
    }
}
