public import Foundation
import Templates

/// The built-in receipt template's sample data: the receipt the benches print.
public enum ReceiptSample {
    /// The JSON, as a kiosk would drop it into a watched folder.
    public static func json() throws -> String {
        guard let sample = BuiltInTemplates.all.first(where: { $0.name == "receipt" })?.sampleData else {
            throw BenchError("the built-in receipt template has no sample data")
        }
        return sample
    }

    /// `receipt` (the built-in receipt's JSON) made the `number`th of a
    /// till's day: its id and every item's name and price its own, so that no
    /// item's text repeats from one receipt to the next, while the shop's
    /// header, the column of quantities, the totals' labels and the footer
    /// do, as on a till. The agent keeps laid-out paragraphs across jobs, and
    /// the same receipt printed again and again would flatter it.
    public static func distinct(_ receipt: String, number: Int) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: Data(receipt.utf8)) as? [String: Any],
              let items = object["items"] as? [[String: Any]] else {
            throw BenchError("the receipt's JSON has no items list")
        }
        object["items"] = items.enumerated().map { index, item -> [String: Any] in
            var item = item
            item["name"] = "\(item["name"] as? String ?? "Item") \(number)-\(index + 1)"
            let cents = 100 + (number * 7_919 + index * 104_729) % 4_900
            item["total"] = String(format: "%d.%02d", cents / 100, cents % 100)
            return item
        }
        if var header = object["receipt"] as? [String: Any] {
            header["id"] = String(format: "R-2026-%06d", number)
            object["receipt"] = header
        }
        return try JSONSerialization.data(withJSONObject: object)
    }
}
