import Foundation

/// Unpadded base64url (RFC 4648 §5) for passes and sealed values, on top of Foundation's base64 (the domain cannot use
/// `Crypto`); the alphabet is swapped byte by byte (`String.replacingOccurrences` went through `NSString`: 10 % of a
/// payment's CPU).
enum Base64URLText {
    /// Encodes `bytes` with `-` and `_`, without `=` padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        for byte in Data(bytes).base64EncodedData() {
            switch byte {
            case UInt8(ascii: "+"): text.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): text.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): break
            default: text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes unpadded base64url; nil for anything that `encode` would not have produced (padding, `+`, `/`,
    /// whitespace, non-zero unused bits), so every byte string has exactly one accepted spelling.
    static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy(isAlphabet) else { return nil }
        var standard = text.utf8.map { byte in
            byte == UInt8(ascii: "-") ? UInt8(ascii: "+") : byte == UInt8(ascii: "_") ? UInt8(ascii: "/") : byte
        }
        standard += [UInt8](repeating: UInt8(ascii: "="), count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: Data(standard)) else { return nil }
        let bytes = [UInt8](data)
        return encode(bytes) == text ? bytes : nil
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
