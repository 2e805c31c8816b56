import Foundation

/// A pass: the signed, versioned token in `paywallUrl` that names a buyer, a project and an expiry (24 h).
///
/// Text form `v1.<payload>.<keyId>.<signature>` (docs/identity.md): `payload` is base64url (no padding) of 40 bytes,
/// guid (16) ‖ project id (16) ‖ expiry in seconds since 1970 (unsigned 64-bit, big-endian); `signature` is
/// base64url of `PassKeys.mac(keyId, UTF-8 of "v1.<payload>.<keyId>")`, so the version and the key id are signed
/// too. All characters are URL-safe; a pass is about 105 characters with a 32-byte MAC.
public enum Pass {
    /// The version tag, the pass's first field.
    public static let version = "v1"
    /// How long a pass is valid after issue: 24 hours.
    public static let lifetime: TimeInterval = 24 * 60 * 60

    static let payloadByteCount = 40

    /// A new pass for `guid` in `projectID`, valid until `now` + 24 h (to the second), signed with the current key.
    public static func issue(guid: BuyerGuid, projectID: ProjectID, now: Date, keys: PassKeys) -> String {
        let claims = PassClaims(guid: guid, projectID: projectID, expiresAt: now.addingTimeInterval(lifetime))
        let signed = "\(version).\(Base64URLText.encode(payload(claims))).\(keys.currentKeyID)"
        return signed + "." + Base64URLText.encode(keys.mac(keys.currentKeyID, Array(signed.utf8)))
    }

    /// Checks a pass: shape, key id, signature (compared in constant time), then expiry against `now`.
    ///
    /// A pass is expired from its `expiresAt` instant on. Signed by a previous key it still verifies.
    public static func verify(_ text: String, now: Date, keys: PassKeys) -> PassVerification {
        let fields = text.split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == version,
              let payload = Base64URLText.decode(fields[1]), payload.count == payloadByteCount,
              PassKeys.isKeyID(fields[2]),
              let signature = Base64URLText.decode(fields[3]), !signature.isEmpty
        else { return .invalid(.malformed) }
        let keyID = String(fields[2])
        guard keys.knows(keyID) else { return .invalid(.unknownKey) }
        let signed = text.utf8.dropLast(fields[3].utf8.count + 1)
        guard constantTimeEquals(keys.mac(keyID, Array(signed)), signature) else { return .invalid(.tampered) }
        let claims = self.claims(payload)
        guard now < claims.expiresAt else { return .invalid(.expired) }
        return .valid(claims)
    }

    private static func payload(_ claims: PassClaims) -> [UInt8] {
        let seconds = UInt64(max(0, claims.expiresAt.timeIntervalSince1970))
        return CanonicalUUID.bytes(claims.guid.uuid) + CanonicalUUID.bytes(claims.projectID.uuid)
            + (0..<8).map { UInt8(truncatingIfNeeded: seconds >> UInt64(56 - 8 * $0)) }
    }

    private static func claims(_ payload: [UInt8]) -> PassClaims {
        let seconds = payload[32..<40].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return PassClaims(guid: BuyerGuid(CanonicalUUID.fromBytes(payload[0..<16])),
                          projectID: ProjectID(CanonicalUUID.fromBytes(payload[16..<32])),
                          expiresAt: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Compares two tags without stopping at the first difference; lengths are not secret.
    private static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
