import Domain
import Foundation
import Postgres

/// Where the ledger finds the referral an `appAccountToken` carries, inside the notification's transaction (the
/// connection has entered the org's scope).
public protocol CommissionReferrals: Sendable {
    /// The referral bound to `appAccountToken` in `org`, with its campaign's terms; nil when none.
    func referral(org: UUID, appAccountToken: UUID, on connection: Connection) throws -> CommissionReferral?
}
