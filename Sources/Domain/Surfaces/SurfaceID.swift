import Foundation

/// A surface's id: a version-4 UUID minted by the server, written as lowercase canonical text.
///
/// A surface is where a developer's own server forwards its iOS app's App Store notifications
/// (`POST /v1/app-store/assn/{surfaceId}`). Its id is global (like an app id): the URL names no organization, so the
/// id alone finds the surface, and an id that is not one answers the same 404 as an unknown one.
public struct SurfaceID: Hashable, Sendable, CustomStringConvertible {
    /// The UUID, as stored in Postgres `uuid` columns.
    public let uuid: UUID

    /// Wraps a UUID read from storage.
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// A new id from 16 bytes of a CSPRNG (the caller draws them; the domain has no randomness).
    public init(randomBytes: [UInt8]) { self.uuid = CanonicalUUID.version4(randomBytes: randomBytes) }

    /// Lowercase canonical text, e.g. `6f1c2e3a-…`.
    public var description: String { CanonicalUUID.text(uuid) }

    /// The URL a developer's server posts this surface's notifications to: `<base>/v1/app-store/assn/<surfaceId>`,
    /// where `base` is `PUBLIC_BASE_URL` without a trailing `/`.
    public func forwardingURL(base: String) -> String { base + "/v1/app-store/assn/" + description }

    /// Parses canonical UUID text in either case; refuses anything else with `VALIDATION_SURFACE_ID_FORMAT`.
    public static func parse(_ text: String, field: String = "surfaceId") -> Result<SurfaceID, FieldRefusal> {
        guard let uuid = CanonicalUUID.parse(text) else {
            return .failure(FieldRefusal(field: field, code: .surfaceIDFormat,
                                         rule: "be a UUID in canonical text form"))
        }
        return .success(SurfaceID(uuid))
    }
}
