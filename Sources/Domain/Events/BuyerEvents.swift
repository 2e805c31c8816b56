import Foundation

/// The stream names of buyer events; every one lives in the buyer's organization's log.
public enum BuyerStreams {
    /// A buyer's own stream: `BuyerCreated`, later its e-mails and codes.
    public static func buyer(_ guid: BuyerGuid) -> String { "buyer-\(guid)" }
}

/// A buyer came into being in a project of an organization (`POST /s2s/v1/users`).
///
/// `email` is sealed for the buyer (`pd1.…`, subject = guid) and `emailHash` is its lookup hash
/// (`LookupHash.email`); both are nil when no e-mail was given. The e-mail starts unverified.
public struct BuyerCreated: EventPayload, Equatable {
    public static let eventType = "BuyerCreated"
    public static let schemaVersion = 1
    public var guid: String
    /// The project where the buyer first appeared (its home project).
    public var projectId: String
    public var externalId: String?
    public var email: SealedValue?
    public var emailHash: String?

    public init(guid: BuyerGuid, projectId: ProjectID, externalId: ExternalID?, email: SealedValue?,
                emailHash: String?) {
        self.guid = guid.description
        self.projectId = projectId.description
        self.externalId = externalId?.text
        self.email = email
        self.emailHash = emailHash
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(guid, forKey: .guid)
        try container.encode(projectId, forKey: .projectId)
        try container.encode(externalId, forKey: .externalId)
        try container.encode(email, forKey: .email)
        try container.encode(emailHash, forKey: .emailHash)
    }
}

/// An e-mail-only `POST /s2s/v1/users` named an address that two or more buyers of the organization have verified
/// (issue 12 §1): no buyer may take the address away from another, so the request was answered as if the address
/// were unverified, with a new buyer. Recorded on the new buyer's stream, in the same append as its `BuyerCreated`,
/// for diagnostics. `verifiedGuids` are the buyers that have the address verified (at most
/// `BuyerCreation.ambiguityListLimit`, in the order they attached the address).
public struct EmailAmbiguous: EventPayload, Equatable {
    public static let eventType = "EmailAmbiguous"
    public static let schemaVersion = 1
    public var emailHash: String
    public var verifiedGuids: [String]
    /// The buyer created instead.
    public var guid: String

    public init(emailHash: String, verifiedGuids: [BuyerGuid], guid: BuyerGuid) {
        self.emailHash = emailHash
        self.verifiedGuids = verifiedGuids.map(\.description)
        self.guid = guid.description
    }
}
