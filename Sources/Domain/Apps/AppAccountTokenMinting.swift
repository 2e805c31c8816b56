import Foundation

/// The decider of `POST /public/app-account-token`: a buyer's App Store `appAccountToken`, the same UUID for the same
/// (organization, guid) every time.
///
/// A guid of another organization is refused (400 `VISITOR_ID_FOREIGN_PROJECT`) before anything is recorded. A guid
/// no organization has seen yet is taken (an app's own device id, before any web payment): the token is minted and
/// kept, and binds nothing — the guid becomes a buyer of the organization when a payment names it, as everywhere.
public enum AppAccountTokenMinting {
    /// What to answer.
    public enum Decision: Sendable, Equatable {
        /// The token minted before: answer it, record nothing.
        case existing(UUID)
        /// Record `AppAccountTokenMinted` with this new token and answer it.
        case mint(UUID)
    }

    /// A new token: a version-4 UUID from 16 bytes of a CSPRNG (the caller draws them).
    public static func newToken(randomBytes: [UInt8]) -> UUID { CanonicalUUID.version4(randomBytes: randomBytes) }

    /// Decides for `org`: `homeOrg` is the org the guid is a buyer of (nil: none), `existing` the token minted for
    /// it in `org` before, `newToken` a fresh random UUID drawn by the shell.
    public static func decide(org: OrgID, homeOrg: OrgID?, existing: UUID?, newToken: UUID)
        -> Result<Decision, Refusal>
    {
        if let homeOrg, homeOrg != org { return .failure(.foreignBuyer()) }
        if let existing { return .success(.existing(existing)) }
        return .success(.mint(newToken))
    }
}
