-- Apps and their store URLs (issue 14, docs/store-notifications.md "Apps and store URLs"): a project's apps, each
-- app's store tokens, its forward destinations, and the App Store `appAccountToken`s minted for buyers.
-- Written only by the inline projection `AppProjection`; rebuilt from the log by `handoff replay`.
--
-- Secrets (RevenueCat authorization, Google push audience and service account, the service-account key, destination
-- signing secrets, the store token itself) are kept only sealed, as `pd1.…` text under the personal-data key of the
-- subject `app:<appId>` (docs/personal-data.md), exactly as the events carry them.

-- One row per app; a project has any number of apps. `app_apple_id` is the App Store's numeric app id (ios only in
-- practice, optional). The bundle id is an iOS bundle id or an Android package name, by platform.
CREATE TABLE apps (
    app_id                      uuid        PRIMARY KEY,
    org_id                      uuid        NOT NULL,
    project_id                  uuid        NOT NULL,
    platform                    text        NOT NULL CHECK (platform IN ('ios', 'android')),
    bundle_id                   text        NOT NULL CHECK (length(bundle_id) BETWEEN 1 AND 255),
    app_apple_id                bigint      CHECK (app_apple_id > 0),
    revenuecat_secret           text        CHECK (revenuecat_secret LIKE 'pd1.%'),
    google_push_audience        text        CHECK (google_push_audience LIKE 'pd1.%'),
    google_push_service_account text        CHECK (google_push_service_account LIKE 'pd1.%'),
    google_service_account_key  text        CHECK (google_service_account_key LIKE 'pd1.%'),
    created_at                  timestamptz NOT NULL,
    updated_at                  timestamptz NOT NULL
);
CREATE INDEX apps_org_id_project_id_idx ON apps (org_id, project_id, created_at);

-- A store token is looked up by the hex SHA-256 of its text (the store URL's last segment); the token itself is
-- kept sealed, so the forwarder can sign with it — also after a rotation retired it (a forward queued before the
-- rotation signs with the token the notification arrived under). One live token per app.
CREATE TABLE app_store_tokens (
    token_hash   text        PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    org_id       uuid        NOT NULL,
    app_id       uuid        NOT NULL,
    sealed_token text        NOT NULL CHECK (sealed_token LIKE 'pd1.%'),
    created_at   timestamptz NOT NULL,
    retired_at   timestamptz
);
CREATE UNIQUE INDEX app_store_tokens_live_idx ON app_store_tokens (app_id) WHERE retired_at IS NULL;

-- Where an app's notifications are forwarded. The app's forward URL is its default `x3` destination (at most one
-- live default per app); `attribloom` destinations take App Store notifications only. Removed destinations stay,
-- with `removed_at`, so the deliveries that name them still read.
CREATE TABLE app_destinations (
    destination_id uuid        PRIMARY KEY,
    org_id         uuid        NOT NULL,
    app_id         uuid        NOT NULL,
    scheme         text        NOT NULL CHECK (scheme IN ('x3', 'attribloom')),
    url            text        NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
    sealed_secret  text        CHECK (sealed_secret LIKE 'pd1.%'),
    is_default     boolean     NOT NULL,
    created_at     timestamptz NOT NULL,
    removed_at     timestamptz
);
CREATE INDEX app_destinations_app_id_idx ON app_destinations (app_id, created_at);
CREATE UNIQUE INDEX app_destinations_live_default_idx ON app_destinations (app_id)
    WHERE is_default AND removed_at IS NULL;

-- The App Store `appAccountToken` of a buyer: random, minted once per (org, guid) and kept, so the same guid gets the
-- same UUID every time (and it tells nothing about the guid). `project_id` is where it was first asked for.
CREATE TABLE app_account_tokens (
    org_id            uuid        NOT NULL,
    guid              text        COLLATE "C" NOT NULL CHECK (guid ~ '^[A-Za-z0-9._:-]{1,64}$'),
    project_id        uuid        NOT NULL,
    app_account_token uuid        NOT NULL,
    created_at        timestamptz NOT NULL,
    PRIMARY KEY (org_id, guid),
    CONSTRAINT app_account_tokens_token_key UNIQUE (app_account_token)
);

-- Row-level security, as 0015 gives every table with an org_id.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['apps', 'app_store_tokens', 'app_destinations', 'app_account_tokens'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY org_scope ON %I '
                       'USING (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0) '
                       'WITH CHECK (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0)', t);
    END LOOP;
END
$$;

-- Lookups before the org is known (as in 0015: one exact key in, the org and nothing else of the row out).

-- The app of a store token, by the hex SHA-256 of its text: the unauthenticated store URLs. `retired`: the token was
-- rotated away (its URL answers 404, the same as an unknown one).
CREATE FUNCTION store_token_app(p_token_hash text) RETURNS TABLE (org_id uuid, app_id uuid, retired boolean)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT t.org_id, t.app_id, t.retired_at IS NOT NULL FROM app_store_tokens t
        WHERE t.token_hash = p_token_hash;
END
$$;

-- The org of an app by its id: `handoff admin app …` names the app only.
CREATE FUNCTION app_org(p_app_id uuid) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
BEGIN
    SELECT a.org_id INTO v_org FROM apps a WHERE a.app_id = p_app_id;
    RETURN v_org;
END
$$;

-- Privileges of the application role (0014's list, continued): rows are inserted and read; the projection moves an
-- app's settings, retires a token and removes a destination; nothing is deleted. The functions are for the
-- application role only (0015 took EXECUTE from PUBLIC for functions created from then on).
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT, UPDATE (bundle_id, app_apple_id, revenuecat_secret, google_push_audience,
                                  google_push_service_account, google_service_account_key, updated_at)
        ON apps TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (retired_at) ON app_store_tokens TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (removed_at) ON app_destinations TO handoff_app;
    GRANT SELECT, INSERT ON app_account_tokens TO handoff_app;
    GRANT EXECUTE ON FUNCTION store_token_app(text) TO handoff_app;
    GRANT EXECUTE ON FUNCTION app_org(uuid) TO handoff_app;
END
$$;
REVOKE ALL ON FUNCTION store_token_app(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION app_org(uuid) FROM PUBLIC;
