import Foundation
import GRDB

/// A date as GRDB stores it, "yyyy-MM-dd HH:mm:ss.SSS" in UTC, written
/// without a DateFormatter.
///
/// GRDB writes every `Date` through a shared DateFormatter, which on Linux is
/// ICU's: its first use builds an ICU formatter (half a millisecond of a
/// one-shot command's time) and each later one takes a lock and a round trip
/// through CoreFoundation, several times per job. The text here is the same,
/// character for character (`StoredDateTests` compares them), so rows and
/// comparisons in SQL (`completedAt < ?`) mix both freely. Dates outside
/// 1970 to 9999 are left to GRDB: ICU's calendar turns Julian before 1582.
struct StoredDate: DatabaseValueConvertible {
    var date: Date

    init(_ date: Date) { self.date = date }

    var databaseValue: DatabaseValue {
        Self.text(date).map { $0.databaseValue } ?? date.databaseValue
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredDate? {
        Date.fromDatabaseValue(dbValue).map(StoredDate.init)
    }

    static let millisecondsPerDay: Int64 = 86_400_000

    /// The text, or nil for a date this does not write (see above).
    static func text(_ date: Date) -> String? {
        // As CoreFoundation hands a date to ICU: milliseconds since 1970,
        // from the reference date, rounded to the nearest millisecond.
        let milliseconds = (date.timeIntervalSinceReferenceDate + Date.timeIntervalBetween1970AndReferenceDate) * 1000
        guard milliseconds >= 0, milliseconds < 253_402_300_800_000 else { return nil }
        let whole = Int64(milliseconds.rounded(.toNearestOrAwayFromZero))
        guard whole < 253_402_300_800_000 else { return nil }  // 1970 ..< 10000
        let days = whole / millisecondsPerDay
        var rest = whole % millisecondsPerDay
        let (year, month, day) = civil(daysSince1970: days)
        let hour = rest / 3_600_000; rest %= 3_600_000
        let minute = rest / 60_000; rest %= 60_000
        let second = rest / 1000
        let millisecond = rest % 1000
        var bytes = [UInt8](repeating: 0, count: 23)
        func put(_ value: Int64, at offset: Int, digits: Int) {
            var value = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                bytes[index] = UInt8(truncatingIfNeeded: 48 + value % 10)
                value /= 10
            }
        }
        put(year, at: 0, digits: 4); bytes[4] = 45  // -
        put(month, at: 5, digits: 2); bytes[7] = 45
        put(day, at: 8, digits: 2); bytes[10] = 32  // space
        put(hour, at: 11, digits: 2); bytes[13] = 58  // :
        put(minute, at: 14, digits: 2); bytes[16] = 58
        put(second, at: 17, digits: 2); bytes[19] = 46  // .
        put(millisecond, at: 20, digits: 3)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (day 0),
    /// by Howard Hinnant's `civil_from_days`.
    static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
