-- App ingest (issue 20's `bench/ingest`; docs/performance.md "bench/ingest", docs/app-ingest.md "Storage" and
-- "Export"): one index per ingest table instead of two.
--
-- Each table had its primary key (day, app, session, install, …) and an index (app, install) for erasure (0034).
-- A stored batch writes ~150 event rows, so the events' two indexes, with keys of ~140 and ~80 bytes, were most of
-- what Postgres did per batch beyond the rows themselves. The key now leads with the app and the install: erasure
-- finds an install's rows by its prefix, the batch write's session lookup and upserts use it as before (equality on
-- every column but the day, which is one value per partition), and the export reads in its order (by install, then
-- session). Measured with pgbench inserting a batch's 149 event rows, 8 clients (session 2026-12-05 #11): 553–715
-- batches/s with the two indexes, 713–840 with the one key.
--
-- The key's columns are the same set, so every ON CONFLICT of `ingest_write` (0044) names it unchanged. On the
-- partitioned parents, so every partition (also those made later) has it; dropping the indexes of 0034 drops their
-- partitions' copies.
ALTER TABLE ingest_events DROP CONSTRAINT ingest_events_pkey;
ALTER TABLE ingest_events ADD PRIMARY KEY (app_id, install_hash, session_id, n, day);
DROP INDEX ingest_events_install_idx;

ALTER TABLE ingest_screen_views DROP CONSTRAINT ingest_screen_views_pkey;
ALTER TABLE ingest_screen_views ADD PRIMARY KEY (app_id, install_hash, session_id, view_id, day);
DROP INDEX ingest_screen_views_install_idx;

ALTER TABLE ingest_sessions DROP CONSTRAINT ingest_sessions_pkey;
ALTER TABLE ingest_sessions ADD PRIMARY KEY (app_id, install_hash, session_id, part, day);
DROP INDEX ingest_sessions_install_idx;
