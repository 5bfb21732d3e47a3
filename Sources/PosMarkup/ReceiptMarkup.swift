public import Foundation

/// A receipt a POS sent in either markup, told apart by its root element:
/// what the spooler keeps as the job's document and draws at send time, so
/// that a failover to another model draws it again for that model.
public enum ReceiptMarkup {
    /// Whether `data` looks like an ePOS-Print or a WebPRNT request.
    public static func looksLike(_ data: Data) -> Bool {
        EposRequest.looksLike(data) || WebPrntRequest.looksLike(data)
    }

    /// The request's receipt commands; throws the first problem with the element and attribute it is in.
    public static func commands(_ data: Data) throws(PosMarkupError) -> [ReceiptCommand] {
        if WebPrntRequest.looksLike(data), !EposRequest.looksLike(data) { return try WebPrntRequest.parse(data).commands }
        return try EposRequest.parse(data).commands
    }
}
