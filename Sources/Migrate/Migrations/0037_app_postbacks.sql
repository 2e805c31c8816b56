-- Apple's postback copies (issue 21, docs/postbacks.md): SKAdNetwork (`skan`) and AdAttributionKit (`aak`)
-- postbacks a customer's first-party proxy forwards to `POST /v1/m/postbacks/{kind}/report-attribution`. Campaign
-- facts only: Apple's postbacks name no install and no person. Not events of the hash-chained log: like the other
-- ingest tables, these are high-volume and money-neutral.

-- One row per postback (`transaction_id` is SKAdNetwork's `transaction-id` or AdAttributionKit's
-- `postback-identifier`): a second copy with a stored id is a duplicate, except that a copy whose signature verifies
-- replaces a stored one whose signature failed (`signature = 'failed'`). Failed rows are kept (at most 100 per
-- project and hour, `PostbackStore`) but never counted; their fields are unverified.
CREATE TABLE app_postbacks (
    org_id                  uuid        NOT NULL,
    project_id              uuid        NOT NULL,
    app_id                  uuid        NOT NULL,
    kind                    text        NOT NULL CHECK (kind IN ('skan', 'aak')),
    transaction_id          text        COLLATE "C" NOT NULL CHECK (length(transaction_id) BETWEEN 1 AND 128),
    signature               text        NOT NULL CHECK (signature IN ('verified', 'development', 'failed')),
    version                 text        CHECK (version IN ('3.0', '4.0')),
    ad_network_id           text        COLLATE "C" NOT NULL CHECK (length(ad_network_id) BETWEEN 1 AND 255),
    source_identifier       text        COLLATE "C" NOT NULL CHECK (source_identifier ~ '^[0-9]{1,10}$'),
    app_store_id            bigint      NOT NULL CHECK (app_store_id > 0),
    did_win                 boolean     NOT NULL,
    sequence_index          smallint    CHECK (sequence_index BETWEEN 0 AND 2),
    conversion_value        smallint    CHECK (conversion_value BETWEEN 0 AND 63),
    coarse_conversion_value text        CHECK (coarse_conversion_value IN ('low', 'medium', 'high')),
    source_app_id           bigint      CHECK (source_app_id >= 0),
    source_domain           text        CHECK (length(source_domain) BETWEEN 1 AND 253),
    received_at             timestamptz NOT NULL,
    PRIMARY KEY (app_id, kind, transaction_id)
);

-- The aggregate read (`GET /s2s/v1/apps/{appId}/postbacks?from=&to=`) and the failed-copies cap per project and hour.
CREATE INDEX app_postbacks_app_received ON app_postbacks (app_id, received_at);
CREATE INDEX app_postbacks_failed_hour ON app_postbacks (project_id, received_at) WHERE signature = 'failed';

ALTER TABLE app_postbacks ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON app_postbacks
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- The application role inserts, reads, and replaces a failed copy by its signed one (UPDATE); nothing is deleted.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT, UPDATE ON app_postbacks TO handoff_app;
END
$$;
