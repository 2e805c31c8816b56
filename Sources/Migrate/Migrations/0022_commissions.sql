-- The commission ledger (issue 15, docs/affiliates.md "Commission ledger"): one row per `CommissionCredited` and per
-- `CommissionReversed`, written only by the inline projection `CommissionProjection`, rebuilt by `handoff replay`.
-- The events are the ledger; this table answers "was this transaction credited / reversed" inside the notification's
-- transaction and backs the statements. Its primary key is the exactly-once rule: one credit and one reversal per
-- (org, App Store transaction id) — a concurrent racer's append fails on it and `EventLog.transact` runs it again,
-- when it finds the winner's row. `org_seq` and `hash` are the entry's event's, for statements that reconcile.
CREATE TABLE commissions (
    org_id                  uuid        NOT NULL,
    transaction_id          text        NOT NULL CHECK (length(transaction_id) BETWEEN 1 AND 256),
    entry                   text        NOT NULL CHECK (entry IN ('credit', 'reversal')),
    affiliate_id            uuid        NOT NULL,
    campaign_id             uuid        NOT NULL,
    original_transaction_id text        NOT NULL,
    sale_type               text        CHECK (sale_type IN ('first_purchase', 'renewal')),
    base_amount             bigint,
    base_currency           text,
    amount                  bigint      NOT NULL CHECK (amount > 0),
    currency                text        NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    payable_after           timestamptz,
    event_id                uuid        NOT NULL UNIQUE,
    org_seq                 bigint      NOT NULL,
    hash                    bytea       NOT NULL,
    recorded_at             timestamptz NOT NULL,
    PRIMARY KEY (org_id, transaction_id, entry)
);
CREATE INDEX commissions_statement_idx ON commissions (org_id, affiliate_id, recorded_at, org_seq);
CREATE INDEX commissions_renewals_idx ON commissions (org_id, affiliate_id, original_transaction_id);

ALTER TABLE commissions ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON commissions
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- The org of an affiliate by its id (`handoff admin affiliate statement --affiliate A` names the affiliate only),
-- as 0015's lookups do: one exact key in, the org and nothing else out.
CREATE FUNCTION affiliate_org(p_affiliate_id uuid) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
BEGIN
    SELECT a.org_id INTO v_org FROM affiliates a WHERE a.affiliate_id = p_affiliate_id;
    RETURN v_org;
END
$$;

-- Ledger rows are inserted and read; never updated or deleted.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT ON commissions TO handoff_app;
    GRANT EXECUTE ON FUNCTION affiliate_org(uuid) TO handoff_app;
END
$$;
