-- App ingest, session 6 (issue 20; docs/app-ingest.md "Storage", docs/app-identity.md "Journey keys"):
-- ingest rows keyed by install too, an erasure that clears an install's journey keys, and conversions that keep their
-- tier without the install.

-- Two installs may send the same `sid` (SDKs mint it per install, nothing makes it unique across installs): the
-- rows of 0029 are keyed by (day, app, install, session …), so the second install's session, events and screen views
-- are its own instead of colliding with the first's. On the partitioned parents, so every partition (also those made
-- later) has the key; the session stays right after the app, in the order the export reads.
ALTER TABLE ingest_sessions DROP CONSTRAINT ingest_sessions_pkey;
ALTER TABLE ingest_sessions ADD PRIMARY KEY (day, app_id, session_id, install_hash);
ALTER TABLE ingest_events DROP CONSTRAINT ingest_events_pkey;
ALTER TABLE ingest_events ADD PRIMARY KEY (day, app_id, session_id, install_hash, n);
ALTER TABLE ingest_screen_views DROP CONSTRAINT ingest_screen_views_pkey;
ALTER TABLE ingest_screen_views ADD PRIMARY KEY (day, app_id, session_id, install_hash, view_id);

-- The journey keys of `app_installs` (`x3c`, `gclid`, `apple_ads_token`, `link`, `meta_referrer`, and a `utm_content`
-- holding Meta's encrypted referrer) are sealed for the install since `AppInstallRecorded` version 2 and are the
-- only data of the row an erasure clears (`InstallProjection` folds `AppInstallErased`). Sealed values are random, so
-- an index over `x3c` finds nothing; nothing reads it.
DROP INDEX app_installs_x3c_idx;

-- An erased install's conversions keep the money fact and the tier the install had when it was erased; the install
-- and session they were hinted by are cleared.
ALTER TABLE app_conversions ADD COLUMN install_tier text
    CHECK (install_tier IN ('referrer', 'apple_ads', 'link', 'identity', 'organic', 'unknown', 'pending'));
DO $$
DECLARE
    v_name text;
BEGIN
    SELECT conname INTO v_name FROM pg_constraint
    WHERE conrelid = 'app_conversions'::regclass AND contype = 'c'
        AND pg_get_constraintdef(oid) LIKE '%install_hash IS NULL%';
    EXECUTE format('ALTER TABLE app_conversions DROP CONSTRAINT %I', v_name);
END
$$;
ALTER TABLE app_conversions ADD CONSTRAINT app_conversions_hint_check
    CHECK ((hinted_at IS NULL) = (app_id IS NULL) AND (install_hash IS NULL OR hinted_at IS NOT NULL));

-- The application role: an erasure clears the journey keys of an install's row (through the projection), deletes the
-- go-link click its `x3c` named (the click's web session and visitor hash are the other end of the journey) and moves
-- its conversions' tier.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT UPDATE (x3c, gclid, link, meta_referrer, utm_content) ON app_installs TO handoff_app;
    GRANT DELETE ON link_clicks TO handoff_app;
    GRANT UPDATE (install_tier) ON app_conversions TO handoff_app;
END
$$;
