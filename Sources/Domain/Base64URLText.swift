import Foundation

/// Unpadded base64url (RFC 4648 §5) for passes, on top of Foundation's base64 (the domain cannot use `Crypto`).
enum Base64URLText {
    /// Encodes `bytes` with `-` and `_`, without `=` padding.
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes unpadded base64url; nil for anything that `encode` would not have produced (padding, `+`, `/`,
    /// whitespace, non-zero unused bits), so every byte string has exactly one accepted spelling.
    static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy(isAlphabet) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
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
