import Foundation

/// A buyer's `guid`: a UUID in canonical text form, minted by the server or by an SDK (a device id).
///
/// Any UUID version is taken, since SDKs use what the platform gives them (`identifierForVendor`, random UUIDs).
/// The nil UUID (all zeros) and the max UUID (all ones) are refused: they are what an unset device id looks like,
/// and accepting them would merge every such device into one buyer. Input may use either case; the text form
/// (stored, returned, signed into passes) is lowercase.
public struct BuyerGuid: Hashable, Sendable, CustomStringConvertible {
    /// The UUID, as stored in Postgres `uuid` columns.
    public let uuid: UUID

    /// Wraps a UUID read from storage.
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// A new guid from 16 bytes of a CSPRNG, as a version-4 UUID (the caller draws the bytes).
    public init(randomBytes: [UInt8]) { self.uuid = CanonicalUUID.version4(randomBytes: randomBytes) }

    /// Lowercase canonical text.
    public var description: String { CanonicalUUID.text(uuid) }

    /// Parses a guid; refuses anything but canonical UUID text, and the nil and max UUIDs, with
    /// `VALIDATION_GUID_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "guid") -> Result<BuyerGuid, FieldRefusal> {
        guard let uuid = CanonicalUUID.parse(text) else {
            return .failure(FieldRefusal(field: field, code: .guidFormat, rule: "be a UUID in canonical text form"))
        }
        let bytes = CanonicalUUID.bytes(uuid)
        guard bytes.contains(where: { $0 != 0 }), bytes.contains(where: { $0 != 0xFF }) else {
            return .failure(FieldRefusal(field: field, code: .guidFormat, rule: "not be the nil or the max UUID"))
        }
        return .success(BuyerGuid(uuid))
    }
}
