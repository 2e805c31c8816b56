import Foundation

/// A pass: the signed, versioned token in `paywallUrl` that names a buyer, a project and an expiry (24 h).
///
/// Text form `v2.<payload>.<keyId>.<signature>` (docs/identity.md): `payload` is base64url (no padding) of
/// `PassPayload` — project id (16 bytes) ‖ expiry (8) ‖ the guid's characters (1–64) — and `signature` is base64url
/// of `PassKeys.mac(keyId, UTF-8 of "v2.<payload>.<keyId>")`, so the version and the key id are signed too. All
/// characters are URL-safe; with a 32-byte MAC and a 2-character key id a pass is 130 characters for a UUID guid and
/// at most 168.
///
/// Passes of the earlier format `v1` (a 16-byte UUID guid first) still verify until they expire, at most 24 h after
/// the upgrade: they name the guid as its lowercase UUID text, which is how that buyer is stored.
public enum Pass {
    /// The version tag of the passes `issue` makes, the pass's first field.
    public static let version = "v2"
    /// How long a pass is valid after issue: 24 hours.
    public static let lifetime: TimeInterval = 24 * 60 * 60

    /// A new pass for `guid` in `projectID`, valid until `now` + 24 h (to the second), signed with the current key.
    public static func issue(guid: BuyerGuid, projectID: ProjectID, now: Date, keys: PassKeys) -> String {
        let claims = PassClaims(guid: guid, projectID: projectID, expiresAt: now.addingTimeInterval(lifetime))
        let signed = "\(version).\(Base64URLText.encode(PassPayload.encode(claims))).\(keys.currentKeyID)"
        return signed + "." + Base64URLText.encode(keys.mac(keys.currentKeyID, Array(signed.utf8)))
    }

    /// Checks a pass: shape (version, payload), key id, signature (compared in constant time), then expiry.
    ///
    /// A pass is expired from its `expiresAt` instant on. Signed by a previous key it still verifies.
    public static func verify(_ text: String, now: Date, keys: PassKeys) -> PassVerification {
        let fields = text.split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count == 4, let format = PassPayload.Format(rawValue: String(fields[0])),
              let payload = Base64URLText.decode(fields[1]), let claims = PassPayload.decode(payload, format: format),
              PassKeys.isKeyID(fields[2]),
              let signature = Base64URLText.decode(fields[3]), !signature.isEmpty
        else { return .invalid(.malformed) }
        let keyID = String(fields[2])
        guard keys.knows(keyID) else { return .invalid(.unknownKey) }
        let signed = text.utf8.dropLast(fields[3].utf8.count + 1)
        guard constantTimeEquals(keys.mac(keyID, Array(signed)), signature) else { return .invalid(.tampered) }
        guard now < claims.expiresAt else { return .invalid(.expired) }
        return .valid(claims)
    }

    /// Compares two tags without stopping at the first difference; lengths are not secret.
    private static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
