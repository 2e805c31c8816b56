/// Byte classes of ASCII text, for the validators.
enum ASCII {
    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    static func isLetterOrDigit(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }

    /// RFC 3986 §2.3 unreserved: letters, digits, `-`, `.`, `_`, `~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    /// Percent-encodes every byte of `text`'s UTF-8 outside the unreserved set, with uppercase hex (RFC 3986 §2.1):
    /// `+`, `@`, `&`, `=`, spaces and non-ASCII all become `%XX`.
    static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output = [UInt8]()
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
