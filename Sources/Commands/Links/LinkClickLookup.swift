import Domain
import EventStore
import Foundation
import Postgres

/// Reads of recorded clicks (`link_clicks`, migration 0032).
public struct LinkClickLookup: Sendable {
    let pool: Pool

    init(pool: Pool) { self.pool = pool }

    /// The go link of the click whose token is `clickToken` (an install's `x3c`) when that click is of `project` in
    /// `org`; nil otherwise, and without a query for a token that is not a click token's shape. A primary-key lookup
    /// under the org's scope, so another organization's click is never found.
    public func link(ofClick clickToken: String, org: OrgID, project: ProjectID) throws -> GoLinkID? {
        guard LinkToken.parse(clickToken) != nil else { return nil }
        let row = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT link_id::text AS link_id FROM link_clicks
                WHERE click_token = $1 AND org_id = $2::uuid AND project_id = $3::uuid
                """, [.text(clickToken), .text(org.description), .text(project.description)],
                in: .org(org.uuid)).rows.first
        }
        guard let text = row?["link_id"], let uuid = UUID(canonicalText: text) else { return nil }
        return GoLinkID(uuid)
    }
}
