import Domain
import Foundation
import Postgres

/// The buyer a store notification names, looked up in the notification's org (row-level security keeps it there).
enum StoreBuyer {
    /// The buyer of the org the reference names, or nil.
    static func resolve(_ reference: StoreIntake.BuyerReference, org: PostgresValue, on connection: Connection) throws
        -> String?
    {
        switch reference {
        case .none:
            return nil
        case .appAccountToken(let token):
            return try connection.query("""
                SELECT guid FROM app_account_tokens WHERE org_id = $1::uuid AND app_account_token = $2::uuid
                """, [org, .text(token.uuidString.lowercased())]).rows.first?["guid"]
        case .candidates(let ids):
            // At most the first 20 valid ids are tried, one indexed lookup each.
            for id in ids.lazy.filter({ if case .success = BuyerGuid.parse($0) { true } else { false } }).prefix(20)
            where try !connection.query("""
                SELECT 1 FROM buyers WHERE org_id = $1::uuid AND guid = $2
                """, [org, .text(id)]).rows.isEmpty {
                return id
            }
            return nil
        }
    }
}
