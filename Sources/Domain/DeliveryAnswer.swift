/// What a delivery attempt keeps of a receiver's answer: its first bytes, safe to store and to print.
public enum DeliveryAnswer {
    /// The most UTF-8 bytes an excerpt has.
    public static let maxBytes = 256

    /// The first bytes of `body` as text of at most `maxBytes` UTF-8 bytes: decoded as UTF-8 (a sequence cut at the
    /// end is dropped, other invalid bytes become U+FFFD), every control character (C0, DEL, C1) and the bidi and
    /// line-separator formatting characters replaced by a space, so a log line or a terminal shows it as one inert
    /// line.
    public static func excerpt(_ body: [UInt8]) -> String {
        var prefix = Array(body.prefix(maxBytes + 4))
        if body.count > maxBytes { prefix = trimIncompleteTail(Array(prefix.prefix(maxBytes))) }
        var result = ""
        var used = 0
        for scalar in String(decoding: prefix, as: UTF8.self).unicodeScalars {
            let safe = isInert(scalar) ? scalar : " "
            let size = String(safe).utf8.count
            guard used + size <= maxBytes else { break }
            result.unicodeScalars.append(safe)
            used += size
        }
        return result
    }

    /// `bytes` without a UTF-8 sequence the cut left unfinished at its end.
    private static func trimIncompleteTail(_ bytes: [UInt8]) -> [UInt8] {
        var start = bytes.count
        while start > 0 && start > bytes.count - 4 && bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
        guard start > 0 else { return bytes }
        let lead = bytes[start - 1]
        let needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return bytes.count - (start - 1) < needed ? Array(bytes[..<(start - 1)]) : bytes
    }

    private static func isInert(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: false
        default: true
        }
    }
}
