import Foundation
import Postgres

/// The organizations whose rows a transaction may read and write under row-level security (migration 0015,
/// docs/architecture.md "Tenant isolation in the database"): the transaction-local setting `handoff.org_id`, which
/// the application role's policy on every table with an `org_id` compares each row's `org_id` with.
///
/// Its statement runs first in the transaction, in the same round trip as BEGIN (`EventLog.transact`,
/// `EventLog.read`) or as the one statement it scopes (`Connection.queryPrepared(_:_:in:)`), and the setting ends
/// with the transaction, so a pooled connection never carries it to its next caller. Without it the application
/// role sees no row of those tables and can write none. The owner role (migrate, replay, audit) is not subject to
/// the policies.
public struct OrgScope: Sendable, Equatable {
    /// The setting the policies read: one org id, or several separated by commas, in canonical lowercase text (the
    /// policy tests whether the row's `org_id::text` occurs in it); empty or unset for none.
    public static let setting = "handoff.org_id"

    /// The statement that sets the scope; its one row's `org_ids` is the setting's new value.
    public let statement: Statement
    /// Whose rows: orgs named outright, or the one a lookup finds (group commit picks a command's lane by it).
    let target: Target

    /// The orgs a scope names: known, or found by a lookup function when the statement runs.
    enum Target: Sendable, Equatable {
        case orgs([UUID])
        case lookup(OrgLookup, PostgresValue)
    }

    private init(_ statement: Statement, target: Target) {
        self.statement = statement
        self.target = target
    }

    /// The rows of one organization.
    public static func org(_ org: UUID) -> OrgScope { orgs([org]) }

    /// The rows of several organizations (a group-commit batch appends for the orgs of all its callers).
    public static func orgs(_ orgs: [UUID]) -> OrgScope {
        let text = orgs.map { $0.lowercasedText }.joined(separator: ",")
        return OrgScope(Statement("SELECT set_config('\(setting)', $1, true) AS org_ids", [.text(text)],
                                  prepared: true), target: .orgs(orgs))
    }

    /// This scope once its lookup has found `org` (group commit looks it up to pick the command's lane): the org named
    /// outright, so the command's transaction does not run the lookup a second time. A lookup finds the same org
    /// each time (what it looks up — a code, a key, a project — never moves to another org), and a row the lookup
    /// found that is gone by then is gone under either scope.
    func found(_ org: UUID) -> OrgScope {
        guard case .lookup = target else { return self }
        return .org(org)
    }

    /// The rows of the organization that `lookup` names for `argument` (a credential's hash, a public id), found
    /// and set in one statement; none when the lookup answers NULL. For requests that learn their organization from
    /// what they were given.
    public static func orgOf(_ lookup: OrgLookup, _ argument: PostgresValue) -> OrgScope {
        OrgScope(Statement(
            "SELECT set_config('\(setting)', coalesce(\(lookup.function)($1)::text, ''), true) AS org_ids",
            [argument], prepared: true), target: .lookup(lookup, argument))
    }
}
