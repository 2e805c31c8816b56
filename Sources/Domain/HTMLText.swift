/// Text made safe for HTML: the post-payment page and the recovery mail escape everything they interpolate with it.
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references: safe in element content and in quoted
    /// attribute values.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
