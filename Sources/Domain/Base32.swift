/// The base32 alphabet of RFC 4648 §6 in lowercase (`a–z 2–7`), without padding, for secret keys.
///
/// Lowercase so a key reads as one word and survives double-click selection; no `=` padding.
enum Base32 {
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Encodes `bytes`, 5 bits per character, the last character zero-padded on the right.
    static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = accumulator << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int(accumulator >> UInt32(bits) & 31)])
            }
        }
        if bits > 0 { output.append(alphabet[Int(accumulator << UInt32(5 - bits) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes text made by `encode`; nil for characters outside the alphabet, an impossible length, or non-zero
    /// padding bits, so every byte string has exactly one accepted spelling.
    static func decode<Text: Collection>(_ text: Text) -> [UInt8]? where Text.Element == UInt8 {
        guard ![1, 3, 6].contains(text.count % 8) else { return nil }
        var output = [UInt8]()
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }
}
