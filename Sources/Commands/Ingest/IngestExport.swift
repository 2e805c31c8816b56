import Domain
import EventStore
import Foundation
import Postgres

/// The raw ingest rows of one app and UTC day as JSON Lines (`GET /s2s/v1/apps/{appId}/export?day=`,
/// docs/app-ingest.md "Export"): first its sessions, then screen views, then events, each line one row with a `type`
/// member, read in pages by key so that no page holds a connection longer than one query and memory stays at one page.
///
/// Rows written while an export runs may or may not appear (pages are separate reads); a finished day does not move.
public struct IngestExport: Sendable {
    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// Rows per page (one query each).
    public static let pageSize = 1000

    /// What a page reads.
    enum Kind: CaseIterable {
        case sessions, screens, events
    }

    /// A pager over one app's day: each `next()` answers the next page's lines (each ending in `\n`), nil at the end.
    public final class Pager: @unchecked Sendable {
        private let export: IngestExport
        private let org: OrgID
        private let app: AppID
        private let day: String
        private var kinds = Kind.allCases[...]
        private var after: Key?

        init(export: IngestExport, org: OrgID, app: AppID, day: String) {
            self.export = export
            self.org = org
            self.app = app
            self.day = day
        }

        /// The next page's bytes, or nil when every kind is read.
        public func next() throws -> [UInt8]? {
            while let kind = kinds.first {
                let rows = try export.page(kind, org: org, app: app, day: day, after: after)
                if rows.count < IngestExport.pageSize {
                    kinds = kinds.dropFirst()
                    after = nil
                } else if let last = rows.last {
                    after = Key(session: try last.string("session_id"), install: try last.string("install_hash"),
                                key: try last.string("k"))
                }
                if !rows.isEmpty {
                    var bytes: [UInt8] = []
                    for row in rows {
                        bytes += Array(try row.string("line").utf8)
                        bytes.append(0x0A)
                    }
                    return bytes
                }
            }
            return nil
        }
    }

    /// A pager over `app`'s rows of the UTC day `day` (`YYYY-MM-DD`, a real date).
    public func pager(org: OrgID, app: AppID, day: String) -> Pager {
        Pager(export: self, org: org, app: app, day: day)
    }

    private static let time = "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'"

    /// Where a page ends: its last row's install, session and the rest of its key (`k`: a view id, an event's `n`,
    /// or a session's part), the order of the tables' keys (migration 0045). Sessions of two installs may share an id
    /// (migration 0040); one install's `sid` has a part per session after a timeout (migration 0044).
    struct Key {
        var session: String
        var install: String
        var key: String
    }

    /// One page of `kind` after the key `after`: `line` (the JSON text), `session_id`, `install_hash` and `k`.
    func page(_ kind: Kind, org: OrgID, app: AppID, day: String, after: Key?) throws -> [Row] {
        let t = Self.time
        let sql: String
        switch kind {
        case .sessions:
            sql = """
                SELECT session_id, install_hash, part::text AS k, json_build_object('type', 'session', 'day', day,
                    'sessionId', session_id, 'part', part, 'installHash', install_hash,
                    'startedAt', to_char(started_at AT TIME ZONE 'UTC', \(t)),
                    'lastSeenAt', to_char(last_seen_at AT TIME ZONE 'UTC', \(t)), 'batches', batches, 'sdk', sdk,
                    'sdkVersion', sdk_version, 'wrapper', wrapper, 'wrapperVersion', wrapper_version,
                    'osVersion', os_version, 'appVersion', app_version, 'consent', consent)::text AS line
                FROM ingest_sessions WHERE org_id = $1::uuid AND app_id = $2::uuid AND day = $3::date
                    AND (install_hash, session_id, part) > ($5::text, $4::text, $6::integer)
                ORDER BY install_hash, session_id, part LIMIT \(Self.pageSize)
                """
        case .screens:
            sql = """
                SELECT session_id, install_hash, view_id AS k, json_build_object('type', 'screen', 'day', day,
                    'sessionId', session_id, 'viewId', view_id, 'installHash', install_hash, 'seq', seq,
                    'startedAt', to_char(started_at AT TIME ZONE 'UTC', \(t)),
                    'endedAt', to_char(ended_at AT TIME ZONE 'UTC', \(t)), 'nav', nav, 'path', path,
                    'engagedMs', engaged_ms, 'taps', taps, 'itaps', itaps,
                    'receivedAt', to_char(received_at AT TIME ZONE 'UTC', \(t)))::text AS line
                FROM ingest_screen_views WHERE org_id = $1::uuid AND app_id = $2::uuid AND day = $3::date
                    AND (install_hash, session_id, view_id) > ($5::text, $4::text, $6::text COLLATE "C")
                ORDER BY install_hash, session_id, view_id LIMIT \(Self.pageSize)
                """
        case .events:
            sql = """
                SELECT session_id, install_hash, n::text AS k, json_build_object('type', 'event', 'day', day,
                    'sessionId', session_id, 'n', n, 'name', name, 'installHash', install_hash,
                    'occurredAt', to_char(occurred_at AT TIME ZONE 'UTC', \(t)), 'props', props,
                    'receivedAt', to_char(received_at AT TIME ZONE 'UTC', \(t)))::text AS line
                FROM ingest_events WHERE org_id = $1::uuid AND app_id = $2::uuid AND day = $3::date
                    AND (install_hash, session_id) >= ($5::text, $4::text)
                    AND (install_hash, session_id, n) > ($5::text, $4::text, $6::bigint)
                ORDER BY install_hash, session_id, n LIMIT \(Self.pageSize)
                """
        }
        return try pool.withConnection { connection in
            try connection.queryPrepared(sql, [.text(org.description), .text(app.description), .text(day),
                                               .text(after?.session ?? ""), .text(after?.install ?? ""),
                                               .text(after?.key ?? (kind == .screens ? "" : "-1"))],
                                         in: .org(org.uuid)).rows
        }
    }
}
