/// Text made safe to put in XML or HTML, in element content and quoted
/// attributes alike: the one escaper for the template markup KioskPrint
/// writes, the answers its printer endpoints send, and the status page.
public enum MarkupEscaping {
    public static func text(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
