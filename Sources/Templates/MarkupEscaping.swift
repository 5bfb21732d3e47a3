/// Text made safe to put in XML or HTML, in element content and quoted
/// attributes alike: the one escaper for the template markup KioskPrint
/// writes, the answers its printer endpoints send, and the status page.
public enum MarkupEscaping {
    public static func text(_ text: String) -> String {
        // Scalar by scalar, not character by character: "&" followed by a combining
        // mark is one Character that is not "&", and would pass unescaped (the fuzzer's find).
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
            case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
            case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": escaped.append(contentsOf: "&quot;".unicodeScalars)
            case "'": escaped.append(contentsOf: "&#39;".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
