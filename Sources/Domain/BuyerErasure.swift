import Foundation

/// The deciders of erasure (issue 16 §5): erase a buyer once, answer the first erasure on repeats.
///
/// The shell reads whether the organization has the buyer and the `erasureId` of its `BuyerErased`, if any, and
/// passes a fresh random id for a new erasure.
public enum BuyerErasure {
    /// A buyer as erasure reads it.
    public struct Stored: Sendable, Equatable {
        /// The id of the buyer's `BuyerErased`; nil while the buyer was never erased.
        public var erasedBy: UUID?

        public init(erasedBy: UUID?) { self.erasedBy = erasedBy }
    }

    /// The outcome of an erasure request for one buyer.
    public enum Decision: Sendable, Equatable {
        /// Append `BuyerErased` with this id (the owner's `buyer_erase` runs in its projection).
        case erase(erasureId: UUID)
        /// Erased before, by this erasure: record nothing, answer its id again.
        case alreadyErased(erasureId: UUID)
    }

    /// Decides erasing `stored` (nil = the organization has no buyer with this guid: 404 `NOT_FOUND` about `guid`,
    /// also for a guid of another organization, whose buyers an org cannot see).
    public static func decide(_ stored: Stored?, newErasureId: UUID) -> Result<Decision, Refusal> {
        guard let stored else { return .failure(.notFound("no buyer with this guid", field: "guid")) }
        if let previous = stored.erasedBy { return .success(.alreadyErased(erasureId: previous)) }
        return .success(.erase(erasureId: newErasureId))
    }

    /// The buyers an erasure by address erases now: those of `holders` (the buyers holding the address, with their
    /// earlier erasure if any) not erased before, in guid order. The address's recovery data is erased either way.
    public static func toErase(_ holders: [(guid: BuyerGuid, stored: Stored)]) -> [BuyerGuid] {
        holders.filter { $0.stored.erasedBy == nil }.map(\.guid).sorted { $0.description < $1.description }
    }
}
