import Foundation

/// The canonical text form of a UUID (RFC 9562 §4): 36 characters, hyphens after hex digits 8, 12, 16 and 20.
///
/// Input may use either case; output is lowercase. Braces, `urn:uuid:`, missing hyphens and spaces are refused,
/// so every UUID has exactly one accepted spelling apart from case.
enum CanonicalUUID {
    /// The UUID spelled by `text`, or nil when `text` is not in canonical form.
    static func parse(_ text: String) -> UUID? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard isHexDigit(byte) else { return nil }
            }
        }
        return UUID(uuidString: text)
    }

    /// The lowercase canonical text of `uuid`.
    static func text(_ uuid: UUID) -> String { uuid.uuidString.lowercased() }

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

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default:
            false
        }
    }
}
