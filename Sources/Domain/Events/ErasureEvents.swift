import Foundation

/// The stream names of erasures (issue 16 §5, docs/personal-data.md "Erasure").
public enum ErasureStreams {
    /// The stream of one erasure by e-mail address: its `EmailErased`.
    public static func erasure(_ erasureId: UUID) -> String { "erasure-\(erasureId.lowercasedText)" }
}

/// A buyer's personal data was erased on request (GDPR Art. 17): in the same transaction the buyer's data keys were
/// destroyed and every lookup row derived from their personal data was deleted (the owner's `buyer_erase`).
///
/// Carries no personal data: the erasure's id and the guid. Stream `buyer-<guid>`; at most one per buyer (a repeated
/// request answers this event's `erasureId`). The events before it keep their bytes, so the hash chain verifies.
public struct BuyerErased: EventPayload, Equatable {
    public static let eventType = "BuyerErased"
    public static let schemaVersion = 1
    /// The erasure's id (a lowercase UUID), answered to the caller.
    public var erasureId: String
    public var guid: String

    public init(erasureId: UUID, guid: BuyerGuid) {
        self.erasureId = erasureId.lowercasedText
        self.guid = guid.description
    }
}

/// An erasure by e-mail address (`POST /s2s/v1/erasures`): the address's recovery data (its recovery requests' data
/// key and its recovery gap) was erased, and `guids` are the buyers that held the address, each erased by a
/// `BuyerErased` with the same `erasureId` (or earlier, by its own). Carries no address and no hash of it.
/// Stream `erasure-<erasureId>`.
public struct EmailErased: EventPayload, Equatable {
    public static let eventType = "EmailErased"
    public static let schemaVersion = 1
    public var erasureId: String
    /// The buyers of the organization that held the address, in guid order.
    public var guids: [String]

    public init(erasureId: UUID, guids: [BuyerGuid]) {
        self.erasureId = erasureId.lowercasedText
        self.guids = guids.map(\.description)
    }
}
