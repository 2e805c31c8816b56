-- Buyer projections (DESIGN.md §2–§4): who each guid is, and the keyed hashes of their e-mail addresses.
-- Written only by the inline projection `BuyerProjection`; rebuilt from the log by `handoff replay`.

-- One row per guid in the whole deployment: a guid belongs to the organization where it first appeared
-- (a guid of another organization is refused with VISITOR_ID_FOREIGN_PROJECT).
CREATE TABLE buyers (
    guid        uuid        PRIMARY KEY,
    org_id      uuid        NOT NULL,
    project_id  uuid        NOT NULL,
    external_id text,
    created_at  timestamptz NOT NULL,
    -- One guid per (org, externalId), also under concurrent requests: the loser's append fails here and retries.
    CONSTRAINT buyers_org_id_external_id_key UNIQUE (org_id, external_id)
);

-- Lookup hashes only (HMAC with HANDOFF_LOOKUP_PEPPER, docs/personal-data.md); the address itself is sealed in
-- the event. `verified` becomes true only by redeeming a code from the buyer's own payment.
CREATE TABLE buyer_emails (
    org_id     uuid        NOT NULL,
    guid       uuid        NOT NULL,
    email_hash text        NOT NULL CHECK (email_hash ~ '^[0-9a-f]{64}$'),
    verified   boolean     NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (guid, email_hash)
);
CREATE INDEX buyer_emails_verified_idx ON buyer_emails (org_id, email_hash) WHERE verified;

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        EXECUTE 'REVOKE DELETE, TRUNCATE ON buyers, buyer_emails FROM handoff_app';
    END IF;
END
$$;
