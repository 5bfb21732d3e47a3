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
}
