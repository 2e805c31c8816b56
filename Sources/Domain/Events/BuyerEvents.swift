import Foundation

/// The stream names of buyer events; every one lives in the buyer's organization's log.
public enum BuyerStreams {
    /// A buyer's own stream: `BuyerCreated`, later its e-mails and codes.
    public static func buyer(_ guid: BuyerGuid) -> String { "buyer-\(guid)" }
}

/// A buyer came into being in a project of an organization (`POST /s2s/v1/users`).
///
/// `email` is sealed for the buyer (`pd1.…`, subject = guid) and `emailRef` is the address's lookup reference
/// (`LookupRefVersion`); both are nil when no e-mail was given. The e-mail starts unverified. Version 1 carried the
/// lookup hash (`LookupHash.email`) as `emailHash` instead of `emailRef`.
public struct BuyerCreated: EventPayload, Equatable {
    public static let eventType = "BuyerCreated"
    public static let schemaVersion = LookupRefVersion.current
    public var guid: String
    /// The project where the buyer first appeared (its home project).
    public var projectId: String
    public var externalId: String?
    public var email: SealedValue?
    /// Version 1 only.
    public var emailHash: String?
    public var emailRef: String?

    public init(guid: BuyerGuid, projectId: ProjectID, externalId: ExternalID?, email: SealedValue?,
                emailRef: String?) {
        self.guid = guid.description
        self.projectId = projectId.description
        self.externalId = externalId?.text
        self.email = email
        self.emailRef = emailRef
    }

    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        try LookupRefVersion.upcast(data, from: schemaVersion, eventType: eventType)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(guid, forKey: .guid)
        try container.encode(projectId, forKey: .projectId)
        try container.encode(externalId, forKey: .externalId)
        try container.encode(email, forKey: .email)
        try container.encodeIfPresent(emailHash, forKey: .emailHash)
        try container.encode(emailRef, forKey: .emailRef)
    }
}

/// An e-mail-only `POST /s2s/v1/users` named an address that two or more buyers of the organization have verified
/// (issue 12 §1): no buyer may take the address away from another, so the request was answered as if the address
/// were unverified, with a new buyer. Recorded on the new buyer's stream, in the same append as its `BuyerCreated`,
/// for diagnostics. `verifiedGuids` are the buyers that have the address verified (at most
/// `BuyerCreation.ambiguityListLimit`, in the order they attached the address).
///
/// Version 2 names the address by its lookup reference (`emailRef`), version 1 by its lookup hash (`emailHash`).
public struct EmailAmbiguous: EventPayload, Equatable {
    public static let eventType = "EmailAmbiguous"
    public static let schemaVersion = LookupRefVersion.current
    /// Version 1 only.
    public var emailHash: String?
    public var emailRef: String?
    public var verifiedGuids: [String]
    /// The buyer created instead.
    public var guid: String

    public init(emailRef: String, verifiedGuids: [BuyerGuid], guid: BuyerGuid) {
        self.emailRef = emailRef
        self.verifiedGuids = verifiedGuids.map(\.description)
        self.guid = guid.description
    }

    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        try LookupRefVersion.upcast(data, from: schemaVersion, eventType: eventType)
    }
}
