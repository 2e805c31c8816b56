import Foundation

/// A campaign's id: a version-4 UUID minted by the server, written as lowercase canonical text.
public struct CampaignID: Hashable, Sendable, CustomStringConvertible {
    /// The UUID, as stored in Postgres `uuid` columns.
    public let uuid: UUID

    /// Wraps a UUID read from storage.
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// A new id from 16 bytes of a CSPRNG (the caller draws them; the domain has no randomness).
    public init(randomBytes: [UInt8]) { self.uuid = CanonicalUUID.version4(randomBytes: randomBytes) }

    /// Lowercase canonical text, e.g. `6f1c2e3a-…`.
    public var description: String { CanonicalUUID.text(uuid) }

    /// Parses canonical UUID text in either case; refuses anything else with `VALIDATION_CAMPAIGN_ID_FORMAT`.
    public static func parse(_ text: String, field: String = "campaignId") -> Result<CampaignID, FieldRefusal> {
        guard let uuid = CanonicalUUID.parse(text) else {
            return .failure(FieldRefusal(field: field, code: .campaignIDFormat,
                                         rule: "be a UUID in canonical text form"))
        }
        return .success(CampaignID(uuid))
    }
}
