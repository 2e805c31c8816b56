-- Affiliate programs, links and bind (issue 15, docs/affiliates.md "Programs and links" and "Bind"): a project's
-- campaigns and affiliates, the clicks of their links, and the referral each App Store `appAccountToken` carries.
-- Written only by the inline projection `AffiliateProjection`; rebuilt from the log by `handoff replay`. Times come
-- from the events (the commands' clock), never from the database.

-- Where an affiliate's link leads (`landingUrl`; unset, the link leads to `paywall_url`). Written by
-- `TenantProjection`.
ALTER TABLE projects ADD COLUMN landing_url text;

-- A campaign's terms never change. `commission` is the rule's JSON as `CampaignCreated` carries it
-- (`{"type":"percent","basisPoints":N,…}` or `{"type":"fixed","amountMinor":N,"currency":"USD",…}`).
CREATE TABLE affiliate_campaigns (
    campaign_id uuid        PRIMARY KEY,
    org_id      uuid        NOT NULL,
    project_id  uuid        NOT NULL,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    commission  jsonb       NOT NULL CHECK (commission->>'type' IN ('percent', 'fixed')),
    window_days integer     NOT NULL CHECK (window_days BETWEEN 1 AND 365),
    hold_days   integer     NOT NULL CHECK (hold_days BETWEEN 0 AND 365),
    offer_code  text        CHECK (offer_code ~ '^[A-Za-z0-9_-]{1,64}$'),
    created_at  timestamptz NOT NULL
);
CREATE INDEX affiliate_campaigns_project_idx ON affiliate_campaigns (org_id, project_id, created_at);

-- An affiliate earns under one campaign of its project. Its referral code is unique in the project, in normal form
-- (upper-case, code alphabet): a racer's insert fails on the key and its command runs again, answering 409.
CREATE TABLE affiliates (
    affiliate_id uuid        PRIMARY KEY,
    org_id       uuid        NOT NULL,
    project_id   uuid        NOT NULL,
    campaign_id  uuid        NOT NULL,
    name         text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    ref_code     text        COLLATE "C" NOT NULL CHECK (ref_code ~ '^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6,16}$'),
    created_at   timestamptz NOT NULL,
    CONSTRAINT affiliates_project_ref_code_key UNIQUE (project_id, ref_code)
);
CREATE INDEX affiliates_project_idx ON affiliates (org_id, project_id, created_at);
-- A bare `/a/{refCode}` (no `?p=`) is looked up by the code alone (`ref_code_org`).
CREATE INDEX affiliates_ref_code_idx ON affiliates (ref_code);

-- One row per click: a link followed (`link`) or a code given at bind (`code`). No IP address or user agent.
-- `app_account_token` is the token minted for this click when it was bound without a guid, so a retried bind
-- answers the same one; set once.
CREATE TABLE affiliate_clicks (
    click_id          uuid        PRIMARY KEY,
    org_id            uuid        NOT NULL,
    project_id        uuid        NOT NULL,
    affiliate_id      uuid        NOT NULL,
    campaign_id       uuid        NOT NULL,
    source            text        NOT NULL CHECK (source IN ('link', 'code')),
    clicked_at        timestamptz NOT NULL,
    expires_at        timestamptz NOT NULL,
    app_account_token uuid        UNIQUE
);
CREATE INDEX affiliate_clicks_affiliate_idx ON affiliate_clicks (org_id, affiliate_id, clicked_at);

-- The referral an App Store `appAccountToken` carries: the latest `ReferralBound` for it (a later one is recorded
-- only after this one's window ended; first touch wins). `guid` is the buyer whose token it is, NULL for a token
-- minted for the click. The commission ledger reads it by (org, token).
CREATE TABLE affiliate_referrals (
    org_id            uuid        NOT NULL,
    app_account_token uuid        NOT NULL,
    project_id        uuid        NOT NULL,
    affiliate_id      uuid        NOT NULL,
    campaign_id       uuid        NOT NULL,
    click_id          uuid        NOT NULL,
    guid              text        COLLATE "C" CHECK (guid ~ '^[A-Za-z0-9._:-]{1,64}$'),
    bound_at          timestamptz NOT NULL,
    window_ends_at    timestamptz NOT NULL CHECK (window_ends_at > bound_at),
    PRIMARY KEY (org_id, app_account_token)
);
CREATE INDEX affiliate_referrals_affiliate_idx ON affiliate_referrals (org_id, affiliate_id, bound_at);

-- Row-level security, as 0015 gives every table with an org_id.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['affiliate_campaigns', 'affiliates', 'affiliate_clicks', 'affiliate_referrals'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY org_scope ON %I '
                       'USING (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0) '
                       'WITH CHECK (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0)', t);
    END LOOP;
END
$$;

-- The org of the one affiliate that holds a referral code in the whole deployment (normal form), or NULL when none
-- or several do (in several projects): a bare `/a/{refCode}` resolves only when it cannot be ambiguous. As the
-- lookups of 0015: one exact key in, the org and nothing else out.
CREATE FUNCTION ref_code_org(p_ref_code text) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
    v_count integer;
BEGIN
    SELECT min(a.org_id::text)::uuid, count(*) INTO v_org, v_count FROM affiliates a
        WHERE a.ref_code = p_ref_code;
    IF v_count = 1 THEN
        RETURN v_org;
    END IF;
    RETURN NULL;
END
$$;

-- Privileges of the application role (0014's list, continued): rows are inserted and read; a click keeps the token
-- minted for it; a referral is replaced by a later one (after its window); nothing is deleted. The function is for
-- the application role only.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT UPDATE (landing_url) ON projects TO handoff_app;
    GRANT SELECT, INSERT ON affiliate_campaigns TO handoff_app;
    GRANT SELECT, INSERT ON affiliates TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (app_account_token) ON affiliate_clicks TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (project_id, affiliate_id, campaign_id, click_id, guid, bound_at, window_ends_at)
        ON affiliate_referrals TO handoff_app;
    GRANT EXECUTE ON FUNCTION ref_code_org(text) TO handoff_app;
END
$$;
REVOKE ALL ON FUNCTION ref_code_org(text) FROM PUBLIC;
