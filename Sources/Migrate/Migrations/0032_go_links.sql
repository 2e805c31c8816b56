-- Go links and their clicks (issue 21, docs/app-links.md): a link of a project leads a visitor to the App Store, to
-- Google Play (with a click token `x3c` in the Play install referrer) or to a fallback URL, by platform.
--
-- `go_links` is the projection of `GoLinkCreated` (`LinkProjection`, rebuilt by `handoff replay`). `token` is the
-- link's global token (the `{ref}` of `GET /v1/go/{ref}`); `code` is the optional short code a proxy key's domain
-- resolves (unique per organization).
CREATE TABLE go_links (
    link_id        uuid        PRIMARY KEY,
    org_id         uuid        NOT NULL,
    project_id     uuid        NOT NULL,
    token          text        NOT NULL UNIQUE CHECK (token ~ '^[A-Za-z0-9_-]{22}$'),
    code           text        CHECK (code ~ '^[A-Za-z0-9_-]{1,64}$'),
    ios_app_id     uuid,
    android_app_id uuid,
    fallback_url   text        NOT NULL CHECK (length(fallback_url) BETWEEN 1 AND 2048),
    -- `{"source":…,"medium":…,"campaign":…,"term":…,"content":…}`, members absent when not set.
    utm            jsonb       NOT NULL DEFAULT '{}',
    app_store_pt   text        CHECK (length(app_store_pt) BETWEEN 1 AND 64),
    app_store_ct   text        CHECK (length(app_store_ct) BETWEEN 1 AND 100),
    created_at     timestamptz NOT NULL
);
CREATE INDEX go_links_project_idx ON go_links (org_id, project_id, created_at);
CREATE UNIQUE INDEX go_links_code_idx ON go_links (org_id, code) WHERE code IS NOT NULL;

-- One row per followed link: the click token (`x3c`) minted for it, the platform it was sent to, the browser's daily
-- visitor hash (HMAC of IP, user agent and UTC day; never the IP or user agent themselves), the web session it was
-- matched to, and whether it was test traffic (`?x3_test=1`). Not events of the log: clicks are ingest-like volume.
CREATE TABLE link_clicks (
    click_token    text        PRIMARY KEY CHECK (click_token ~ '^[A-Za-z0-9_-]{22}$'),
    org_id         uuid        NOT NULL,
    project_id     uuid        NOT NULL,
    link_id        uuid        NOT NULL,
    platform       text        NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
    visitor_hash   text        NOT NULL CHECK (visitor_hash ~ '^[0-9a-f]{64}$'),
    web_session_id text        CHECK (web_session_id ~ '^[A-Za-z0-9._:-]{1,64}$'),
    test           boolean     NOT NULL,
    clicked_at     timestamptz NOT NULL
);
CREATE INDEX link_clicks_visitor_idx ON link_clicks (org_id, project_id, visitor_hash, clicked_at);
CREATE INDEX link_clicks_link_idx ON link_clicks (org_id, link_id, clicked_at);

-- An organization's proxy keys (projection of `ProxyKeyIssued`): only the SHA-256 of a key (`px_…`) is kept, with its
-- visible prefix and the domains it was registered for. With the key in `X-Handoff-Proxy-Key`, `GET /v1/go/{ref}`
-- resolves the organization's link codes.
CREATE TABLE proxy_keys (
    proxy_key_id   uuid        PRIMARY KEY,
    org_id         uuid        NOT NULL,
    key_hash       text        NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
    visible_prefix text        NOT NULL CHECK (visible_prefix ~ '^px_[A-Za-z0-9_-]{8}$'),
    domains        text[]      NOT NULL CHECK (cardinality(domains) BETWEEN 1 AND 20),
    created_at     timestamptz NOT NULL
);

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['go_links', 'link_clicks', 'proxy_keys'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY org_scope ON %I '
                       'USING (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0) '
                       'WITH CHECK (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0)', t);
    END LOOP;
END
$$;

-- The org of a link's global token, before the org is known (as `app_org` in 0017: one exact token in, the org out).
CREATE FUNCTION go_link_org(p_token text) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
BEGIN
    SELECT l.org_id INTO v_org FROM go_links l WHERE l.token = p_token;
    RETURN v_org;
END
$$;

-- The org of a proxy key, by the SHA-256 (hex) of its text.
CREATE FUNCTION proxy_key_org(p_key_hash text) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
BEGIN
    SELECT k.org_id INTO v_org FROM proxy_keys k WHERE k.key_hash = p_key_hash;
    RETURN v_org;
END
$$;

-- The application role: links are inserted by their projection, clicks by `GET /v1/go/{ref}`; nothing moves.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT ON go_links TO handoff_app;
    GRANT SELECT, INSERT ON link_clicks TO handoff_app;
    GRANT SELECT, INSERT ON proxy_keys TO handoff_app;
    GRANT EXECUTE ON FUNCTION go_link_org(text) TO handoff_app;
    GRANT EXECUTE ON FUNCTION proxy_key_org(text) TO handoff_app;
END
$$;
REVOKE ALL ON FUNCTION go_link_org(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION proxy_key_org(text) FROM PUBLIC;
