import Foundation

/// A proxy key's id: a version-4 UUID minted by the server, written as lowercase canonical text.
public struct ProxyKeyID: Hashable, Sendable, CustomStringConvertible {
    /// The UUID, as stored in Postgres `uuid` columns.
    public let uuid: UUID

    /// Wraps a UUID read from storage.
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// A new id from 16 bytes of a CSPRNG (the caller draws them; the domain has no randomness).
    public init(randomBytes: [UInt8]) { self.uuid = CanonicalUUID.version4(randomBytes: randomBytes) }

    /// Lowercase canonical text, e.g. `6f1c2e3a-…`.
    public var description: String { CanonicalUUID.text(uuid) }
}
