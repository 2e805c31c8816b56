import Foundation

/// A signed click id: what `GET /a/{refCode}` adds to the landing URL as `click=` and an app sends to bind.
///
/// Text form `c1.<payload>.<keyId>.<signature>`, built like a pass (`Pass`) and signed with the same rotating keys
/// (`PassKeys`): `payload` is base64url (no padding) of project id ‖ affiliate id ‖ campaign id ‖ click id (16 bytes
/// each, network order) ‖ expiry (8, unsigned big-endian seconds since 1970) — 72 bytes, 96 characters — and
/// `signature` is base64url of `PassKeys.mac(keyId, UTF-8 of "c1.<payload>.<keyId>")`. The version tag is signed, so
/// a pass can never pass for a click id or the reverse. Every character is URL-safe; with a 32-byte MAC and a
/// 2-character key id a click id is 146 characters, at most 176.
public enum SignedClickID {
    /// The version tag, the first field.
    public static let version = "c1"
    /// The most characters a well-formed click id has (a 32-character key id).
    public static let maxLength = 176
    /// The shape `parse` takes, as a regular expression (`/openapi.json`): four fields, URL-safe characters, base64url
    /// in its one canonical spelling (the signature's last character carries 4 bits and 2 zero bits: one of 16).
    public static let pattern = "^c1\\.[A-Za-z0-9_-]{96}\\.[A-Za-z0-9_-]{1,32}\\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$"

    /// What a click id says.
    public struct Claims: Hashable, Sendable {
        public var project: ProjectID
        public var affiliate: AffiliateID
        public var campaign: CampaignID
        public var click: ClickID
        /// The first instant at which the id binds nothing; whole seconds.
        public var expiresAt: Date

        public init(project: ProjectID, affiliate: AffiliateID, campaign: CampaignID, click: ClickID,
                    expiresAt: Date) {
            self.project = project
            self.affiliate = affiliate
            self.campaign = campaign
            self.click = click
            self.expiresAt = Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))
        }

        /// The claims of a recorded click.
        public init(_ click: ClickFacts) {
            self.init(project: click.project, affiliate: click.affiliate, campaign: click.campaign, click: click.click,
                      expiresAt: click.expiresAt)
        }
    }

    /// A click id that has the shape of one (fields, payload size, key id); its signature is not checked yet.
    public struct Parsed: Hashable, Sendable {
        public let text: String
        public let claims: Claims
        fileprivate let keyID: String
        fileprivate let signature: [UInt8]
    }

    /// Why a well-formed click id binds nothing (all answer the same 404; for logs and tests).
    public enum Rejection: Error, Hashable, Sendable {
        /// Names a key id that is neither the current nor a previous key (rotated away).
        case unknownKey
        /// The signature does not match: altered or forged.
        case tampered
        /// Authentic, but `now` is at or after its expiry.
        case expired
    }

    /// The click id of `click`, signed with the current key.
    public static func issue(_ click: ClickFacts, keys: PassKeys) -> String {
        let signed = "\(version).\(Base64URLText.encode(payload(Claims(click)))).\(keys.currentKeyID)"
        return signed + "." + Base64URLText.encode(keys.mac(keys.currentKeyID, Array(signed.utf8)))
    }

    /// Checks the shape: version, payload of 72 bytes, key id, a 32-byte signature; refuses with
    /// `VALIDATION_SIGNED_CLICK_ID_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "signedClickId") -> Result<Parsed, FieldRefusal> {
        let fields = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= maxLength, fields.count == 4, fields[0] == version,
              let payload = Base64URLText.decode(fields[1]), payload.count == 72,
              Base64URLText.encode(payload) == fields[1], PassKeys.isKeyID(fields[2]),
              let signature = Base64URLText.decode(fields[3]), signature.count == 32,
              Base64URLText.encode(signature) == fields[3]
        else {
            return .failure(FieldRefusal(field: field, code: .signedClickIDFormat,
                                         rule: "be a click id as the affiliate link adds it (c1.…)"))
        }
        let seconds = payload[64..<72].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let claims = Claims(
            project: ProjectID(CanonicalUUID.fromBytes(payload[0..<16])),
            affiliate: AffiliateID(CanonicalUUID.fromBytes(payload[16..<32])),
            campaign: CampaignID(CanonicalUUID.fromBytes(payload[32..<48])),
            click: ClickID(CanonicalUUID.fromBytes(payload[48..<64])),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return .success(Parsed(text: text, claims: claims, keyID: String(fields[2]), signature: signature))
    }

    /// Checks a parsed id's key, signature (in constant time) and expiry at `now`: its claims, or why not.
    public static func verify(_ parsed: Parsed, now: Date, keys: PassKeys) -> Result<Claims, Rejection> {
        guard keys.knows(parsed.keyID) else { return .failure(.unknownKey) }
        let signed = parsed.text.utf8.dropLast(Base64URLText.encode(parsed.signature).utf8.count + 1)
        let expected = keys.mac(parsed.keyID, Array(signed))
        guard expected.count == parsed.signature.count else { return .failure(.tampered) }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ parsed.signature[index] }
        guard difference == 0 else { return .failure(.tampered) }
        guard now < parsed.claims.expiresAt else { return .failure(.expired) }
        return .success(parsed.claims)
    }

    /// project ‖ affiliate ‖ campaign ‖ click ‖ expiry.
    static func payload(_ claims: Claims) -> [UInt8] {
        let seconds = UInt64(max(0, claims.expiresAt.timeIntervalSince1970))
        return CanonicalUUID.bytes(claims.project.uuid) + CanonicalUUID.bytes(claims.affiliate.uuid)
            + CanonicalUUID.bytes(claims.campaign.uuid) + CanonicalUUID.bytes(claims.click.uuid)
            + (0..<8).map { UInt8(truncatingIfNeeded: seconds >> UInt64(56 - 8 * $0)) }
    }
}
