import Domain
import EventStore
import Foundation
import Postgres

extension IngestRowStore {
    /// The statements that keep a stored batch's account tokens (`app_install_identities`, migration 0034: inserted,
    /// or their attribution and last sighting moved) and its erase proof (`dp`, kept only if the install has none).
    ///
    /// Every stored batch, with an identity or without, sets the attribution of the install's tokens already kept to
    /// its own `cs`: the `identity` tier needs attribution granted in the install's latest batch (issue 20), so a
    /// later batch that denies it (or grants it again) counts even when it names no identity.
    static func identityStatements(_ rows: IngestRows) -> [Statement] {
        let org = PostgresValue.text(rows.orgId.description)
        let app = PostgresValue.text(rows.appId.description)
        let install = PostgresValue.text(rows.installHash)
        var statements = [Statement("""
            UPDATE app_install_identities SET attribution = $3::boolean
            WHERE app_id = $1::uuid AND install_hash = $2 AND attribution <> $3::boolean
            """, [app, install, .bool(rows.attributionGranted)], prepared: true)]
        if !rows.identity.isEmpty {
            var kinds = PostgresArray(.text), tokens = PostgresArray(.text)
            for (kind, token) in rows.identity.sorted(by: { $0.key < $1.key }) {
                kinds.append(kind)
                tokens.append(token)
            }
            statements.append(Statement("""
                INSERT INTO app_install_identities AS i (org_id, project_id, app_id, install_hash, kind, token,
                    attribution, first_seen_at, last_seen_at)
                SELECT $1::uuid, $2::uuid, $3::uuid, $4, u.kind, u.token, $7::boolean, now(), now()
                FROM unnest($5::text[], $6::text[]) AS u(kind, token)
                ON CONFLICT (app_id, install_hash, kind, token) DO UPDATE SET attribution = EXCLUDED.attribution,
                    last_seen_at = EXCLUDED.last_seen_at
                """, [org, .text(rows.projectId.description), app, install, kinds.value, tokens.value,
                      .bool(rows.attributionGranted)], prepared: true))
        }
        if let proof = rows.eraseProof {
            statements.append(proofStatement(org: org, app: app, install: install, proof: proof))
        }
        return statements
    }

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
