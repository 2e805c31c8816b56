import EventStore
import Foundation
import Postgres

/// Reads of `org_auditors`: where an organization's signed chain heads are also delivered.
public enum AuditorLookup {
    /// `org`'s auditor URL, or nil when none is set; on the caller's connection, in a transaction scoped to `org`.
    public static func url(org: UUID, on connection: Connection) throws -> String? {
        try connection.queryPrepared("SELECT url FROM org_auditors WHERE org_id = $1::uuid",
                                     [.text(org.lowercasedText)]).first?["url"]
    }
}
