-- App leads (issue 20, docs/app-leads.md): the lead forms an app's SDK sends (`POST /v1/m/lead`), one row per
-- `AppLeadReceived`. Written only by the inline projection `AppLeadProjection`; rebuilt by `handoff replay`.
--
-- Contact data stays sealed as the event carries it (`pd1.…`, subject `app-install:<install_hash>`): the row holds
-- no plaintext. `contact_hash` and `event_id` serve the double-submit rule (the app's leads of the last two minutes);
-- `org_seq` orders the S2S read (`GET /s2s/v1/apps/{appId}/leads`) and pages it.
CREATE TABLE app_leads (
    lead_id           uuid        PRIMARY KEY,
    org_id            uuid        NOT NULL,
    project_id        uuid        NOT NULL,
    app_id            uuid        NOT NULL,
    org_seq           bigint      NOT NULL CHECK (org_seq > 0),
    install_hash      text        NOT NULL CHECK (install_hash ~ '^[0-9a-f]{64}$'),
    session_id        text,
    form              text        NOT NULL,
    event_id          text,
    contact_hash      text        NOT NULL CHECK (contact_hash ~ '^[0-9a-f]{64}$'),
    email             text        CHECK (email LIKE 'pd1.%'),
    email_hash        text,
    first_name        text        CHECK (first_name LIKE 'pd1.%'),
    message           text        CHECK (message LIKE 'pd1.%'),
    marketing_consent boolean     NOT NULL,
    fill_ms           bigint,
    -- 'signup' for a lead made by "signup is lead" (one per install, ever), 'form' for POST /v1/m/lead.
    source            text        NOT NULL DEFAULT 'form' CHECK (source IN ('form', 'signup')),
    identity          text        CHECK (identity LIKE 'pd1.%'),
    received_at       timestamptz NOT NULL
);
CREATE INDEX app_leads_app_idx ON app_leads (org_id, app_id, org_seq);
CREATE INDEX app_leads_recent_idx ON app_leads (org_id, app_id, received_at);
CREATE UNIQUE INDEX app_leads_signup_idx ON app_leads (org_id, app_id, install_hash) WHERE source = 'signup';

ALTER TABLE app_leads ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON app_leads
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- The application role: the projection inserts; nothing is updated or deleted (erasure destroys the subject's key).
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT ON app_leads TO handoff_app;
END
$$;
