import Foundation

/// The canonical text form of a UUID (RFC 9562 §4): 36 characters, hyphens after hex digits 8, 12, 16 and 20.
///
/// Input may use either case; output is lowercase. Braces, `urn:uuid:`, missing hyphens and spaces are refused,
/// so every UUID has exactly one accepted spelling apart from case.
enum CanonicalUUID {
    /// The UUID spelled by `text`, or nil when `text` is not in canonical form.
    ///
    /// Decodes the hex digits itself: Foundation's `UUID(uuidString:)` goes through `sscanf`, which was 2 % of the
    /// server's CPU on an entitlement lookup (docs/performance.md).
    static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var out: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let decoded = withUnsafeMutableBytes(of: &out) { uuid -> Bool in
                var index = 0
                for position in 0..<16 {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard bytes[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                    }
                    guard let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return false }
                    uuid[position] = high << 4 | low
                    index += 2
                }
                return true
            }
            return decoded ? UUID(uuid: out) : nil
        }
    }

    /// The lowercase canonical text of `uuid`. Foundation's `uuidString` is uppercase and formats through `snprintf`,
    /// which with the second copy for `lowercased()` was a sixth of the client's instructions per appended event
    /// (docs/event-store.md, "Benchmark").
    static func text(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        out[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    out[index] = hexDigits[Int(byte >> 4)]
                    out[index + 1] = hexDigits[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }

    /// A version-4 UUID (RFC 9562 §5.4) made from 16 random bytes: the version and variant bits are overwritten.
    static func version4(randomBytes: [UInt8]) -> UUID {
        precondition(randomBytes.count == 16, "CanonicalUUID.version4: needs 16 random bytes")
        var b = randomBytes
        b[6] = b[6] & 0x0F | 0x40
        b[8] = b[8] & 0x3F | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// The 16 bytes of `uuid` in network order.
    static func bytes(_ uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    /// The UUID whose network-order bytes are `bytes` (exactly 16).
    static func fromBytes(_ b: ArraySlice<UInt8>) -> UUID {
        let b = Array(b)
        precondition(b.count == 16, "CanonicalUUID.fromBytes: needs 16 bytes")
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The value of one hex digit in either case, or nil for any other byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension UUID {
    /// Lowercase canonical text, e.g. `6f1c2e3a-0b4d-4c5e-8f60-718293a4b5c6` (what Postgres prints for a `uuid`).
    public var lowercasedText: String { CanonicalUUID.text(self) }

    /// The UUID spelled in canonical text (36 characters, either case), or nil for anything else.
    public init?(canonicalText text: String) {
        guard let uuid = CanonicalUUID.parse(text) else { return nil }
        self = uuid
    }
}
