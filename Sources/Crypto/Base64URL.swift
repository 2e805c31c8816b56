/// The URL- and filename-safe base64 alphabet of RFC 4648 §5 (`-` and `_`), as used by JWS and tokens.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 256 entries: the 6-bit value of each byte, or 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Encodes `bytes` without `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output += [alphabet[Int(group >> 18 & 63)], alphabet[Int(group >> 12 & 63)],
                       alphabet[Int(group >> 6 & 63)], alphabet[Int(group & 63)]]
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let group = UInt32(bytes[index]) << 16
            output += [alphabet[Int(group >> 18 & 63)], alphabet[Int(group >> 12 & 63)]]
        case 2:
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output += [alphabet[Int(group >> 18 & 63)], alphabet[Int(group >> 12 & 63)], alphabet[Int(group >> 6 & 63)]]
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url text with or without `=` padding; nil for anything else.
    ///
    /// Refuses characters outside the alphabet (including `+`, `/` and whitespace), impossible lengths,
    /// wrong padding, and non-zero unused bits, so every byte string has exactly one accepted spelling
    /// apart from the optional padding.
    public static func decode(_ text: String) -> [UInt8]? {
        var input = Array(text.utf8)
        if input.count % 4 == 0, input.last == UInt8(ascii: "=") {
            input.removeLast()
            if input.last == UInt8(ascii: "=") { input.removeLast() }
        }
        let remainder = input.count % 4
        guard remainder != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in input {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard accumulator == 0 else { return nil }
        return output
    }
}
