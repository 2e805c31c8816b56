/// Quotes text as a JSON string (RFC 8259 escapes), for hand-written JSON on hot paths and in log lines.
public enum JSONString {
    /// `text` in double quotes with `"`, `\` and control characters escaped.
    public static func quote(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 2)
        append(text, to: &out)
        return out
    }

    /// Appends `text` as a quoted JSON string to `out`.
    public static func append(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
