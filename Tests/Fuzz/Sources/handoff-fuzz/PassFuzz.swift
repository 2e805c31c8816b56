import Crypto
@testable import Domain
import Foundation

/// `pass`: the bytes as the `pass` query parameter of `GET /public/paywall/buyer` (`Pass.verify`), and as material
/// for passes issued and then changed.
///
/// Properties: a `v2` pass that verifies is exactly the pass its claims would be issued as (one spelling per pass), a
/// `v1` pass names its guid as lowercase UUID text, and neither is expired; base64url fields decode only from their
/// one canonical spelling; a pass issued for a guid and claims made from the input verifies to those claims until
/// its expiry and is expired from it, its payload decodes to them; changing any one character of it (the position
/// and replacement from the input) never leaves it valid.
enum PassFuzz {
    static let target = FuzzTarget(name: "pass", maxLength: 512, run: run)

    /// A fixed instant inside the lifetime of the seed passes (2025-06-15T12:00:00Z).
    static let now = Date(timeIntervalSince1970: 1_749_988_800)

    /// The keys passes are checked with: `k2` signs, `k1` still verifies.
    static let keys = keys(current: "k2")

    /// The characters of a guid, for guids made from the input.
    static let guidAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-".utf8)

    static func keys(current: String) -> PassKeys {
        PassKeys(currentKeyID: current, previousKeyIDs: ["k1", "k2"].filter { $0 != current }) { keyID, message in
            HMAC.sha256(key: Array("handoff-fuzz-pass-key-\(keyID)-0123456789".utf8), message: message)
        }
    }

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        if case .valid(let claims) = Pass.verify(candidate, now: now, keys: keys) { checkValid(candidate, claims) }
        for field in candidate.split(separator: ".") {
            if let decoded = Base64URLText.decode(field) {
                check(Base64URLText.encode(decoded) == field, "'\(field)' decodes but is not canonical")
            }
        }
        checkIssued(bytes)
    }

    private static func checkValid(_ pass: String, _ claims: PassClaims) {
        check(now < claims.expiresAt, "a valid pass expired at \(claims.expiresAt)")
        let fields = pass.split(separator: ".")
        if fields[0] == "v1" {
            check(CanonicalUUID.parse(claims.guid.text).map(CanonicalUUID.text) == claims.guid.text,
                  "a v1 pass names the guid '\(claims.guid.text)', not a lowercase UUID")
            return
        }
        let issuedAt = claims.expiresAt.addingTimeInterval(-Pass.lifetime)
        let again = Pass.issue(guid: claims.guid, projectID: claims.projectID, now: issuedAt,
                               keys: keys(current: String(fields[2])))
        check(again == pass, "a valid pass is spelled '\(pass)', its claims issue '\(again)'")
    }

    private static func checkIssued(_ bytes: [UInt8]) {
        let length = 1 + Int(material(bytes, count: 1, offset: 24)[0]) % BuyerGuid.maxLength
        let characters = material(bytes, count: length, offset: 25).map { guidAlphabet[Int($0) % guidAlphabet.count] }
        guard let guid = BuyerGuid(stored: String(decoding: characters, as: UTF8.self)) else {
            check(false, "'\(String(decoding: characters, as: UTF8.self))' is not a stored guid")
            return
        }
        let project = ProjectID(CanonicalUUID.fromBytes(material(bytes, count: 16)[...]))
        let seconds = material(bytes, count: 8, offset: 16).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let issuedAt = Date(timeIntervalSince1970: TimeInterval(seconds % 253_402_300_800))
        let pass = Pass.issue(guid: guid, projectID: project, now: issuedAt, keys: keys)
        let claims = PassClaims(guid: guid, projectID: project, expiresAt: issuedAt.addingTimeInterval(Pass.lifetime))
        check(PassPayload.decode(PassPayload.encode(claims), format: .v2) == claims, "payload of \(claims)")
        check(Pass.verify(pass, now: issuedAt, keys: keys) == .valid(claims), "a fresh pass does not verify: \(pass)")
        check(Pass.verify(pass, now: claims.expiresAt, keys: keys) == .invalid(.expired), "\(pass) outlives expiry")
        let replacements = Array("AZaz09-_.v12k".utf8)
        var changed = Array(pass.utf8)
        let position = Int(material(bytes, count: 1, offset: 89)[0]) % changed.count
        let replacement = replacements[Int(material(bytes, count: 1, offset: 90)[0]) % replacements.count]
        guard changed[position] != replacement else { return }
        changed[position] = replacement
        if case .valid = Pass.verify(String(decoding: changed, as: UTF8.self), now: issuedAt, keys: keys) {
            check(false, "'\(String(decoding: changed, as: UTF8.self))' (one character of a pass changed) verifies")
        }
    }
}
