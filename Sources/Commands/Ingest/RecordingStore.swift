import Domain
import EventStore
import Foundation
import Postgres

/// Session recordings (migration 0033): writes admitted packets with their screenshots and lists a session's packets.
///
/// A packet is one transaction in its org's scope: the session is made by its first packet (which fixes the
/// session's secret), a packet whose secret differs is `.secretMismatch`, one whose `seq` is stored is `.duplicate`,
/// and a screenshot already stored for the app (same SHA-256) is not stored again.
public struct RecordingStore: Sendable {
    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// What became of a packet.
    public enum WriteOutcome: Sendable, Equatable {
        case stored
        case secretMismatch
        case duplicate
    }

    /// Writes `row` unless its session's secret differs or its `seq` is already stored.
    public func write(_ row: RecordingPacketRow) throws -> WriteOutcome {
        let org = PostgresValue.text(row.orgId.description)
        let app = PostgresValue.text(row.appId.description)
        let session = PostgresValue.text(row.sessionId)
        return try pool.transaction(opening: OrgScope.org(row.orgId.uuid).statement) { connection in
            try connection.queryPrepared("""
                INSERT INTO recording_sessions (org_id, project_id, app_id, session_id, install_hash, secret_hash,
                    platform, created_at)
                VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, $7, to_timestamp($8::double precision))
                ON CONFLICT (app_id, session_id) DO NOTHING
                """, [org, .text(row.projectId.description), app, session, .text(row.installHash),
                      .text(row.secretHash), .text(row.platform.rawValue), .double(seconds(row.receivedAt))])
            let stored = try connection.queryPrepared("""
                SELECT secret_hash FROM recording_sessions WHERE app_id = $1::uuid AND session_id = $2
                """, [app, session]).rows.first
            guard try stored?.string("secret_hash") == row.secretHash else { return .secretMismatch }
            let inserted = try connection.queryPrepared("""
                INSERT INTO recording_packets (org_id, app_id, session_id, seq, screen, started_at, ended_at,
                    event_count, events, received_at)
                VALUES ($1::uuid, $2::uuid, $3, $4::integer, $5, to_timestamp($6::double precision),
                    to_timestamp($7::double precision), $8::integer, $9, to_timestamp($10::double precision))
                ON CONFLICT (app_id, session_id, seq) DO NOTHING
                RETURNING seq
                """, [org, app, session, .int(row.seq), .optional(row.screen), .double(seconds(row.startedAt)),
                      .double(seconds(row.endedAt)), .int(row.eventCount), .bytea(row.events),
                      .double(seconds(row.receivedAt))]).rows
            guard !inserted.isEmpty else { return .duplicate }
            for asset in row.assets {
                try connection.queryPrepared("""
                    INSERT INTO recording_assets (org_id, app_id, sha256, mime, bytes, created_at, last_used_at)
                    VALUES ($1::uuid, $2::uuid, $3, $4, $5, to_timestamp($6::double precision),
                        to_timestamp($6::double precision))
                    ON CONFLICT (app_id, sha256) DO NOTHING
                    """, [org, app, .text(asset.sha256), .text(asset.mime), .bytea(asset.bytes),
                          .double(seconds(row.receivedAt))])
            }
            if !row.assetReferences.isEmpty {
                // Moved at most once a day per screenshot: the retention counts days, not packets.
                var shas = PostgresArray(.text)
                for sha in row.assetReferences { shas.append(sha) }
                try connection.queryPrepared("""
                    UPDATE recording_assets SET last_used_at = to_timestamp($3::double precision)
                    WHERE org_id = $1::uuid AND app_id = $2::uuid AND sha256 = ANY($4::text[])
                        AND last_used_at < to_timestamp($3::double precision) - interval '1 day'
                    """, [org, app, .double(seconds(row.receivedAt)), shas.value])
            }
            return .stored
        }
    }

    /// Deletes the recorded sessions of install `installHash` (HMAC of `appId:ins`, as written) of app `appId` in
    /// `org` and their packets, for a device erasure; answers how many sessions. Screenshots stay: they are stored
    /// once per content for the whole app and hold no install.
    @discardableResult
    public func erase(org: OrgID, appId: AppID, installHash: String) throws -> Int {
        let results = try pool.withConnection { connection in
            try connection.pipeline([
                OrgScope.org(org.uuid).statement,
                Statement("""
                    DELETE FROM recording_packets p USING recording_sessions s
                    WHERE s.org_id = $1::uuid AND s.app_id = $2::uuid AND s.install_hash = $3
                        AND p.app_id = s.app_id AND p.session_id = s.session_id
                    """, [.text(org.description), .text(appId.description), .text(installHash)]),
                Statement("""
                    DELETE FROM recording_sessions
                    WHERE org_id = $1::uuid AND app_id = $2::uuid AND install_hash = $3 RETURNING session_id
                    """, [.text(org.description), .text(appId.description), .text(installHash)]),
            ])
        }
        return results[2].rows.count
    }

    /// One stored packet as the recordings list shows it.
    public struct Packet: Sendable, Equatable {
        public var seq: Int
        public var screen: String?
        public var startedAt: Date
        public var endedAt: Date
        public var eventCount: Int
        public var receivedAt: Date
        /// The NDJSON of its rrweb events.
        public var events: [UInt8]
    }

    /// The packets of `sessionId` of app `appId` in `org` whose `seq` is above `after`, by `seq` (at most `limit`);
    /// empty for an unknown session.
    public func packets(org: OrgID, appId: AppID, sessionId: String, after: Int = -1, limit: Int) throws -> [Packet] {
        let rows = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT seq, screen, extract(epoch FROM started_at)::text AS started_at,
                    extract(epoch FROM ended_at)::text AS ended_at, event_count,
                    extract(epoch FROM received_at)::text AS received_at, events
                FROM recording_packets
                WHERE org_id = $1::uuid AND app_id = $2::uuid AND session_id = $3 AND seq > $4::integer
                ORDER BY seq LIMIT $5::integer
                """, [.text(org.description), .text(appId.description), .text(sessionId), .int(after), .int(limit)],
                in: .org(org.uuid)).rows
        }
        return try rows.map { row in
            guard let started = Double(try row.string("started_at")), let ended = Double(try row.string("ended_at")),
                  let received = Double(try row.string("received_at")), let events = row.bytes("events")
            else { throw InconsistentState("a stored recording packet does not read back") }
            return Packet(seq: try row.int("seq"), screen: row.isNull("screen") ? nil : try row.string("screen"),
                          startedAt: Date(timeIntervalSince1970: started), endedAt: Date(timeIntervalSince1970: ended),
                          eventCount: try row.int("event_count"), receivedAt: Date(timeIntervalSince1970: received),
                          events: events)
        }
    }

    /// A stored screenshot of app `appId` in `org`: its type and bytes, or nil.
    public func asset(org: OrgID, appId: AppID, sha256: String) throws -> (mime: String, bytes: [UInt8])? {
        let row = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT mime, bytes FROM recording_assets WHERE org_id = $1::uuid AND app_id = $2::uuid AND sha256 = $3
                """, [.text(org.description), .text(appId.description), .text(sha256)], in: .org(org.uuid)).rows.first
        }
        guard let row, let bytes = row.bytes("bytes") else { return nil }
        return (try row.string("mime"), bytes)
    }

    private func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 }
}
