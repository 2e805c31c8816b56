import Commands
import Domain
import EventStore
import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport

/// The day-partitioned ingest tables (migration 0029) through `IngestRowStore`, as the application role: dedupe,
/// screen-view replacement, partitions made on demand, retention by dropping days, and row-level security.
@Suite struct IngestStorageTests {
    private struct Setup {
        let fixture: IngestFixture
        let store: IngestRowStore
        let app: IngestFixture.App
        let org: OrgID
        let project: ProjectID
        let appId: AppID
        let owner: Connection
    }

    private func setup() throws -> Setup {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let pool = Pool(configuration: PostgresConfiguration(url: fixture.apps.tenants.database.appURL, poolSize: 2))
        return Setup(fixture: fixture, store: IngestRowStore(pool: pool), app: app,
                     org: try OrgID.parse(app.tenant.org).get(), project: try ProjectID.parse(app.tenant.project).get(),
                     appId: try AppID.parse(app.appId).get(), owner: try fixture.apps.tenants.ownerConnection())
    }

    private func rows(_ setup: Setup, at time: Date, session: String = "s-1", events: [(Int, String)] = [],
                      views: [(String, Int)] = [], install: String = String(repeating: "ab", count: 32))
        -> IngestRows {
        IngestRows(
            orgId: setup.org, projectId: setup.project, appId: setup.appId,
            installHash: install,
            session: .init(sessionId: session, startedAt: time, lastSeenAt: time.addingTimeInterval(60), sdk: "X3Kit",
                           sdkVersion: "1.4.2", osVersion: "17.5", appVersion: "3.1", consent: "gggg"),
            events: events.map { .init(sessionId: session, n: $0.0, name: $0.1, occurredAt: time, props: #"{"k":1}"#) },
            screenViews: views.map {
                .init(sessionId: session, viewId: $0.0, seq: $0.1, startedAt: time, endedAt: time.addingTimeInterval(5),
                      nav: "push", path: "Home/\($0.1)", engagedMs: 4000, taps: $0.1, itaps: 0)
            })
    }

    private func count(_ setup: Setup, _ table: String) throws -> Int {
        Int(try setup.owner.query("SELECT count(*) AS n FROM \(table) WHERE app_id = $1::uuid",
                                  [.text(setup.app.appId)]).rows[0].string("n")) ?? -1
    }

    @Test func aReSentBatchStoresEachEventOnceAndAHigherSeqReplacesAScreenView() throws {
        let setup = try setup()
        let now = Date()
        try setup.store.write(rows(setup, at: now, events: [(1, "open"), (2, "tap")], views: [("v1", 1), ("v2", 1)]))
        try setup.store.write(rows(setup, at: now, events: [(2, "tap"), (3, "close"), (3, "close")],
                                   views: [("v1", 3), ("v1", 2), ("v2", 0)]))
        #expect(try count(setup, "ingest_events") == 3)
        #expect(try count(setup, "ingest_screen_views") == 2)
        let views = try setup.owner.query("""
            SELECT view_id, seq, path, install_hash FROM ingest_screen_views WHERE app_id = $1::uuid ORDER BY view_id
            """, [.text(setup.app.appId)]).rows
        #expect(try views.map { try "\($0.string("view_id")):\($0.string("seq")):\($0.string("path"))" }
                == ["v1:3:Home/3", "v2:1:Home/1"])
        #expect(try views[0].string("install_hash") == String(repeating: "ab", count: 32))
        let session = try setup.owner.query("""
            SELECT batches, sdk, consent, day = (now() AT TIME ZONE 'UTC')::date AS today FROM ingest_sessions
            WHERE app_id = $1::uuid
            """, [.text(setup.app.appId)]).rows
        #expect(session.count == 1)
        #expect(try session[0].string("batches") == "2" && session[0].string("sdk") == "X3Kit")
        #expect(try session[0].bool("today"))
    }

    @Test func twoInstallsSendingTheSameSessionIdKeepTheirOwnSessionEventsAndScreenViews() throws {
        let setup = try setup()
        let now = Date()
        let other = String(repeating: "cd", count: 32)
        try setup.store.write(rows(setup, at: now, events: [(1, "open"), (2, "tap")], views: [("v1", 1)]))
        try setup.store.write(rows(setup, at: now, events: [(1, "launch"), (2, "swipe")], views: [("v1", 4)],
                                   install: other))
        try setup.store.write(rows(setup, at: now, events: [(2, "tap"), (3, "close")], views: [("v1", 2)]))
        let sessions = try setup.owner.query("""
            SELECT install_hash, batches FROM ingest_sessions WHERE app_id = $1::uuid ORDER BY install_hash
            """, [.text(setup.app.appId)]).rows
        #expect(try sessions.map { try "\($0.string("install_hash").prefix(2)):\($0.string("batches"))" }
                == ["ab:2", "cd:1"])
        let events = try setup.owner.query("""
            SELECT left(install_hash, 2) || ':' || n || ':' || name AS e FROM ingest_events WHERE app_id = $1::uuid
            ORDER BY 1
            """, [.text(setup.app.appId)]).rows
        #expect(try events.map { try $0.string("e") } == ["ab:1:open", "ab:2:tap", "ab:3:close", "cd:1:launch",
                                                          "cd:2:swipe"])
        let views = try setup.owner.query("""
            SELECT left(install_hash, 2) || ':' || view_id || ':' || seq AS v FROM ingest_screen_views
            WHERE app_id = $1::uuid ORDER BY 1
            """, [.text(setup.app.appId)]).rows
        #expect(try views.map { try $0.string("v") } == ["ab:v1:2", "cd:v1:4"])
        // The export of the day lists both installs' rows, by session, then install.
        let day = String(RFC3339.format(now).prefix(10))
        let pool = Pool(configuration: PostgresConfiguration(url: setup.fixture.apps.tenants.database.appURL,
                                                             poolSize: 1))
        let pager = IngestExport(pool: pool).pager(org: setup.org, app: setup.appId, day: day)
        var lines: [String] = []
        while let page = try pager.next() {
            lines += String(decoding: page, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let installs = lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).map {
                "\($0["type"] ?? ""):\(String(describing: $0["installHash"] ?? "").prefix(2))"
            }
        }
        #expect(installs == ["session:ab", "session:cd", "screen:ab", "screen:cd", "event:ab", "event:ab", "event:ab",
                             "event:cd", "event:cd"])
    }

    @Test func aDayWithoutAPartitionGetsOneAndRetentionDropsWholeOldDays() throws {
        let setup = try setup()
        let now = Date()
        let old = now.addingTimeInterval(-30 * 86400)
        try setup.store.write(rows(setup, at: old, session: "old", events: [(1, "open")], views: [("v", 1)]))
        #expect(try count(setup, "ingest_events") == 1)
        let partitionsOf = """
            SELECT count(*) AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'ingest_parts' AND c.relname LIKE '%\\_' || to_char($1::timestamptz AT TIME ZONE 'UTC',
                'YYYYMMDD')
            """
        #expect(try setup.owner.query(partitionsOf, [.text(ISO8601DateFormatter().string(from: old))]).rows[0]
            .string("n") == "3")
        try setup.store.write(rows(setup, at: now, session: "new", events: [(1, "open")]))
        // A retention of 20 days drops the day 30 days ago (every table's partition of it) and keeps today.
        let dropped = try setup.store.applyRetention(now: now, retentionDays: 20)
        #expect(dropped >= 3)
        #expect(try setup.owner.query(partitionsOf, [.text(ISO8601DateFormatter().string(from: old))]).rows[0]
            .string("n") == "0")
        #expect(try count(setup, "ingest_events") == 1)
        #expect(try count(setup, "ingest_sessions") == 1)
        // Retention also keeps the next days ready.
        let ahead = now.addingTimeInterval(2 * 86400)
        #expect(try setup.owner.query(partitionsOf, [.text(ISO8601DateFormatter().string(from: ahead))]).rows[0]
            .string("n") == "3")
    }

    /// Since migration 0049 the events a batch stores for one session and UTC day are one row of
    /// `ingest_event_batches` (ordered by `n`); a re-send stores only the numbers its session and day do not have yet,
    /// the first of equal numbers in one batch wins, and the `ingest_events` view reads them back one row per event.
    @Test func aBatchsEventsAreOneRowPerSessionAndDayAndOnlyNumbersNotYetStoredAreAdded() throws {
        let setup = try setup()
        let midnight = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86400).rounded(.down) * 86400)
        let before = midnight.addingTimeInterval(-30)
        let after = midnight.addingTimeInterval(30)
        var batch = rows(setup, at: before)
        batch.events = [
            .init(sessionId: "s-1", n: 3, name: "tap", occurredAt: before, props: #"{"k":3}"#),
            .init(sessionId: "s-1", n: 1, name: "open", occurredAt: before, props: nil),
            .init(sessionId: "s-1", n: 1, name: "open again", occurredAt: before, props: nil),
            .init(sessionId: "s-1", n: 4, name: "after midnight", occurredAt: after, props: nil),
            .init(sessionId: "s-2", n: 1, name: "other session", occurredAt: before, props: nil),
        ]
        try setup.store.write(batch)
        let packed = """
            SELECT session_id || '@' || (day - $2::date) || ':' || array_to_string(event_ns, ',') || ':'
                || array_to_string(event_names, ',') AS r
            FROM ingest_event_batches WHERE app_id = $1::uuid ORDER BY session_id, day, first_n
            """
        let day = String(RFC3339.format(midnight).prefix(10))
        #expect(try setup.owner.query(packed, [.text(setup.app.appId), .text(day)]).rows.map { try $0.string("r") }
                == ["s-1@-1:1,3:open,tap", "s-1@0:4:after midnight", "s-2@-1:1:other session"])
        // A re-send with one number stored and two new ones adds a row of the two.
        var again = rows(setup, at: before)
        again.events = [
            .init(sessionId: "s-1", n: 3, name: "tap changed", occurredAt: before, props: nil),
            .init(sessionId: "s-1", n: 2, name: "scroll", occurredAt: before, props: nil),
            .init(sessionId: "s-1", n: 7, name: "close", occurredAt: before, props: nil),
        ]
        try setup.store.write(again)
        try setup.store.write(again)
        let events = try setup.owner.query("""
            SELECT session_id || ':' || n || ':' || name || ':' || coalesce(props::text, '-') AS e FROM ingest_events
            WHERE app_id = $1::uuid ORDER BY session_id, n
            """, [.text(setup.app.appId)]).rows.map { try $0.string("e") }
        #expect(events == ["s-1:1:open:-", #"s-1:2:scroll:-"#, #"s-1:3:tap:{"k": 3}"#, "s-1:4:after midnight:-",
                           "s-1:7:close:-", "s-2:1:other session:-"])
        #expect(try count(setup, "ingest_event_batches") == 4)
    }

    /// `ingest_write` (migration 0049) refuses event arrays of different lengths whole, as no row could pair them.
    @Test func theWriteRefusesEventArraysOfDifferentLengths() throws {
        let setup = try setup()
        try setup.owner.query("SELECT set_config('handoff.org_id', $1, false)", [.text(setup.org.description)])
        let error = #expect(throws: PostgresError.self) {
            try setup.owner.query("""
                SELECT ingest_write($1::uuid, $2::uuid, $3::uuid, repeat('ab', 32), 's-1', t, t, 1800000, NULL, NULL,
                    NULL, NULL, NULL, NULL, 'gggg', '{s-1,s-1}', '{1,2}', '{open}', ARRAY[t, t], '{NULL,NULL}',
                    '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', false, '{}', '{}', NULL, false)
                FROM (SELECT (extract(epoch FROM now()) * 1000)::bigint AS t) n
                """, [.text(setup.org.description), .text(setup.project.description), .text(setup.app.appId)])
        }
        #expect(error?.message.contains("differ in length") == true, "\(String(describing: error))")
        #expect(try count(setup, "ingest_events") == 0)
    }

    /// Batches of one install written at once, each re-sending most of the others' numbers, store every number once
    /// (`ingest_write` holds a transaction lock on the install while it reads the marks and adds its row).
    @Test func concurrentBatchesOfOneInstallStoreEachNumberOnce() throws {
        let setup = try setup()
        let now = Date()
        let pool = Pool(configuration: PostgresConfiguration(url: setup.fixture.apps.tenants.database.appURL,
                                                             poolSize: 8))
        let store = IngestRowStore(pool: pool)
        let failures = Mutex(0)
        let rounds = 6
        for round in 0..<rounds {
            // Eight threads released together; each batch its own top-level session (so no session row orders them),
            // its events all of the round's session.
            let gate = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for i in 0..<8 {
                var batch = rows(setup, at: now, session: "top-\(round)-\(i)")
                batch.events = (0..<40).map {
                    .init(sessionId: "s-\(round)", n: ($0 * 3 + i) % 60, name: "e", occurredAt: now, props: nil)
                }
                done.enter()
                Thread { [batch] in
                    gate.wait()
                    do { try store.write(batch) } catch { failures.withLock { $0 += 1 } }
                    done.leave()
                }.start()
            }
            for _ in 0..<8 { gate.signal() }
            done.wait()
        }
        #expect(failures.withLock { $0 } == 0)
        let stored = try setup.owner.query("""
            SELECT count(*) AS all, count(DISTINCT (session_id, n)) AS distinct, min(n) AS low, max(n) AS high
            FROM ingest_events WHERE app_id = $1::uuid
            """, [.text(setup.app.appId)]).rows[0]
        #expect(try stored.string("all") == "\(rounds * 60)" && stored.string("distinct") == "\(rounds * 60)")
        #expect(try stored.string("low") == "0" && stored.string("high") == "59")
    }

    /// `ingest_write` (migration 0048) checks the rules the event table checked per row, once over the batch, and
    /// writes nothing of a batch it refuses.
    @Test func theWriteRefusesEventsOutOfRangeAndAnInstallHashNotOfHexDigits() throws {
        let setup = try setup()
        var longSession = rows(setup, at: Date(), events: [(1, "open"), (2, "open")])
        longSession.events[1].sessionId = String(repeating: "s", count: 65)
        let outOfRange: [(String, IngestRows)] = [
            ("a name of 129 bytes", rows(setup, at: Date(), events: [(1, String(repeating: "e", count: 129))])),
            ("an empty name", rows(setup, at: Date(), events: [(1, "")])),
            ("a negative n", rows(setup, at: Date(), events: [(-1, "open")])),
            ("an event's session of 65 bytes", longSession),
        ]
        for (what, batch) in outOfRange {
            do {
                try setup.store.write(batch)
                Issue.record("\(what) was written")
            } catch let error as PostgresError {
                #expect(error.sqlState == "23514" && error.message.contains("out of range"), "\(what): \(error)")
            }
        }
        for install in [String(repeating: "AB", count: 32), String(repeating: "ab", count: 31) + "zz",
                        String(repeating: "ab", count: 33)] {
            #expect(throws: PostgresError.self, "\(install)") {
                try setup.store.write(rows(setup, at: Date(), events: [(1, "open")], install: install))
            }
        }
        #expect(try count(setup, "ingest_events") == 0)
        #expect(try count(setup, "ingest_sessions") == 0)
        // A batch within the rules, with account tokens and an erase proof, keeps both; its tier is read only when
        // it may move the install (an identity and attribution granted) and the install is recorded.
        var identified = rows(setup, at: Date(), events: [(1, String(repeating: "e", count: 128))])
        identified.identity = ["xid": String(repeating: "c", count: 64)]
        identified.attributionGranted = true
        identified.eraseProof = String(repeating: "d", count: 64)
        #expect(try setup.store.write(identified).identifiedInstallTier == nil)
        #expect(try count(setup, "app_install_identities") == 1)
        #expect(try count(setup, "app_install_erase_proofs") == 1)
        #expect(try count(setup, "ingest_events") == 1)
    }

    @Test func anotherOrganizationsScopeSeesNoneOfTheRowsAndCannotWriteThem() throws {
        let setup = try setup()
        try setup.store.write(rows(setup, at: Date(), events: [(1, "open")], views: [("v", 1)]))
        let other = try setup.fixture.apps.tenants.tenant()
        let app = Pool(configuration: PostgresConfiguration(url: setup.fixture.apps.tenants.database.appURL,
                                                            poolSize: 1))
        let otherOrg = try OrgID.parse(other.org).get()
        for table in ["ingest_sessions", "ingest_events", "ingest_event_batches", "ingest_screen_views"] {
            let seen = try app.withConnection { connection in
                try connection.queryPrepared("SELECT count(*) AS n FROM \(table)", [], in: .org(otherOrg.uuid))
            }.rows[0].string("n")
            #expect(seen == "0", "\(table)")
            let mine = try app.withConnection { connection in
                try connection.queryPrepared("SELECT count(*) AS n FROM \(table)", [], in: .org(setup.org.uuid))
            }.rows[0].string("n")
            #expect(mine == "1", "\(table)")
        }
        var foreign = rows(setup, at: Date(), events: [(9, "x")])
        foreign.orgId = otherOrg
        // Rows claiming org A written under org B's scope are refused by the policy, whatever the caller says.
        let scoped = IngestRowStore(pool: app)
        #expect(throws: PostgresError.self) {
            try app.withConnection { connection in
                try connection.pipeline([OrgScope.org(otherOrg.uuid).statement, Statement("""
                    INSERT INTO ingest_event_batches (day, org_id, app_id, install_hash, session_id, first_n,
                        event_ns, event_names, event_ms, event_props, received_at)
                    VALUES (current_date, $1::uuid, $2::uuid, repeat('a', 64), 's', 1, '{1}', '{x}',
                        '{1764547200000}', ARRAY[NULL::jsonb], now())
                    """, [.text(setup.org.description), .text(setup.app.appId)])])
            }
        }
        // Nor can org B's rows update org A's session of the same app and id: the policy hides it from the upsert.
        #expect(throws: PostgresError.self) { try scoped.write(foreign) }
        #expect(try count(setup, "ingest_events") == 1)
        #expect(try setup.owner.query("SELECT batches FROM ingest_sessions WHERE app_id = $1::uuid",
                                      [.text(setup.app.appId)]).rows[0].string("batches") == "1")
    }
}
