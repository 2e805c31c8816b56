import Domain
import EventStore
import Foundation
import Postgres

extension IngestRowStore {
    /// Keeps `proof` (a batch's `dp`) as the erase proof of install `installHash` unless it has one: for a batch
    /// that is not stored (consent, quota, a paused app), since erasure works in every consent state.
    public func keepEraseProof(org: OrgID, app: AppID, installHash: String, proof: String) throws {
        let statements = [
            OrgScope.org(org.uuid).statement,
            Self.proofStatement(org: .text(org.description), app: .text(app.description), install: .text(installHash),
                                proof: proof),
        ]
        try pool.withConnection { _ = try $0.pipeline(statements) }
    }

    private static func proofStatement(org: PostgresValue, app: PostgresValue, install: PostgresValue,
                                       proof: String) -> Statement {
        Statement("""
            INSERT INTO app_install_erase_proofs (org_id, app_id, install_hash, proof, recorded_at)
            VALUES ($1::uuid, $2::uuid, $3, $4, now()) ON CONFLICT (app_id, install_hash) DO NOTHING
            """, [org, app, install, .text(proof)], prepared: true)
    }
}
