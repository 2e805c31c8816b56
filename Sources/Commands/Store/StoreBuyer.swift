import Domain
import Foundation
import Postgres

/// The buyer a store notification names, looked up in the notification's org (row-level security keeps it there).
enum StoreBuyer {
    /// One statement that finds the buyer, and how to read its answer.
    struct Read {
        let statement: Statement
        let buyer: (QueryResult) -> String?
    }

    /// The read for `reference` in `org`; nil when the reference names no one.
    static func read(_ reference: StoreIntake.BuyerReference, org: PostgresValue) -> Read? {
        switch reference {
        case .none:
            return nil
        case .appAccountToken(let token):
            return Read(statement: Statement("""
                SELECT guid FROM app_account_tokens WHERE org_id = $1::uuid AND app_account_token = $2::uuid
                """, [org, .text(token.lowercasedText)], prepared: true)) { $0.rows.first?["guid"] }
        case .candidates(let ids):
            // At most the first 20 valid ids are tried, in one indexed lookup; the first of them that is a buyer wins.
            let tried = Array(ids.lazy.filter { if case .success = BuyerGuid.parse($0) { true } else { false } }
                .prefix(20))
            var array = PostgresArray(.text)
            for id in tried { array.append(id) }
            return Read(statement: Statement("""
                SELECT guid FROM buyers WHERE org_id = $1::uuid AND guid = ANY($2::text[])
                """, [org, array.value], prepared: true)) { result in
                let found = Set(result.rows.compactMap { $0["guid"] })
                return tried.first(where: found.contains)
            }
        }
    }
}
