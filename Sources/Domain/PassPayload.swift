import Foundation

/// The bytes a pass signs, in each format it was ever issued in.
///
/// - `v2` (issued now): project id (16, network order) ‖ expiry in whole seconds since 1970 (unsigned 64-bit,
///   big-endian) ‖ the guid's characters (1–64 bytes of `A–Z a–z 0–9 . _ : -`, the rest of the payload, so no length
///   field). 25–88 bytes.
/// - `v1` (before opaque guids, verified only): guid as 16 UUID bytes ‖ project id (16) ‖ expiry (8). 40 bytes; the
///   guid reads as its lowercase UUID text.
enum PassPayload {
    /// A pass's version tag.
    enum Format: String {
        case v1, v2
    }

    /// The v2 payload of `claims`.
    static func encode(_ claims: PassClaims) -> [UInt8] {
        CanonicalUUID.bytes(claims.projectID.uuid) + expiryBytes(claims.expiresAt) + Array(claims.guid.text.utf8)
    }

    /// The claims in `payload`, or nil when it is not a payload of `format` (a wrong size, a guid outside the rule).
    static func decode(_ payload: [UInt8], format: Format) -> PassClaims? {
        switch format {
        case .v2:
            guard payload.count > 24,
                  let guid = BuyerGuid(stored: String(decoding: payload[24...], as: UTF8.self)) else { return nil }
            return PassClaims(guid: guid, projectID: ProjectID(CanonicalUUID.fromBytes(payload[0..<16])),
                              expiresAt: expiry(payload[16..<24]))
        case .v1:
            guard payload.count == 40,
                  let guid = BuyerGuid(stored: CanonicalUUID.text(CanonicalUUID.fromBytes(payload[0..<16]))) else {
                return nil
            }
            return PassClaims(guid: guid, projectID: ProjectID(CanonicalUUID.fromBytes(payload[16..<32])),
                              expiresAt: expiry(payload[32..<40]))
        }
    }

    private static func expiryBytes(_ date: Date) -> [UInt8] {
        let seconds = UInt64(max(0, date.timeIntervalSince1970))
        return (0..<8).map { UInt8(truncatingIfNeeded: seconds >> UInt64(56 - 8 * $0)) }
    }

    private static func expiry(_ bytes: ArraySlice<UInt8>) -> Date {
        Date(timeIntervalSince1970: TimeInterval(bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
    }
}
