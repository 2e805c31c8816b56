/// What an SDK or a paywall script sends when it has no device id: refused as a guid, because taking it would make
/// every such device one buyer, sharing each other's purchases.
///
/// - Only zeros (ignoring `. _ : -`): the nil UUID `00000000-0000-0000-0000-000000000000` (what iOS hands out for a
///   zeroed identifier, e.g. the advertising id with tracking denied, and what SDKs zero-fill an absent
///   `identifierForVendor` with), an all-zero `ANDROID_ID` `0000000000000000`, `0`.
/// - The max UUID `ffffffff-ffff-ffff-ffff-ffffffffffff` in either case, RFC 9562's other sentinel.
/// - `null`, `nil`, `undefined` in any case: how JavaScript, Kotlin/Java and Swift print a missing value.
///
/// Anything else, however odd (`0000000000000001`, `none`), is somebody's id.
enum UnsetDeviceID {
    /// The words of the refusal: "field 'guid' must not be …".
    static let described = "an unset device id (only zeros, the max UUID, null, nil or undefined)"

    /// The words, refused in any case.
    static let words = ["null", "nil", "undefined"]
    /// The characters that do not count when judging "only zeros".
    static let punctuation = ASCIISet("._:-")

    /// Regular expressions (unanchored alternatives, in the guid alphabet) that together match exactly the texts
    /// `matches` is true for: only zeros, the max UUID in either case, the words in any case.
    static let patterns: [String] = [
        "[\(punctuation.classBody)]*0[0\(punctuation.classBody)]*",
        [8, 4, 4, 4, 12].map { "[fF]{\($0)}" }.joined(separator: "-"),
    ] + words.map { word in word.map { "[\($0.uppercased())\($0)]" }.joined() }

    /// True when `bytes` (already checked to be 1–64 characters of the guid alphabet) are an unset device id.
    static func matches(_ bytes: [UInt8]) -> Bool {
        isOnlyZeros(bytes) || isMaxUUID(bytes) || words.contains(String(decoding: bytes, as: UTF8.self).lowercased())
    }

    private static func isOnlyZeros(_ bytes: [UInt8]) -> Bool {
        let significant = bytes.filter { !isPunctuation($0) }
        return !significant.isEmpty && significant.allSatisfy { $0 == UInt8(ascii: "0") }
    }

    private static func isMaxUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        return bytes.indices.allSatisfy { index in
            [8, 13, 18, 23].contains(index)
                ? bytes[index] == UInt8(ascii: "-")
                : bytes[index] == UInt8(ascii: "f") || bytes[index] == UInt8(ascii: "F")
        }
    }

    private static func isPunctuation(_ byte: UInt8) -> Bool {
        punctuation.contains(byte)
    }
}
