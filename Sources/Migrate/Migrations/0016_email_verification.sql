-- What verifies a buyer's e-mail address in a project (issue 12 §1, docs/identity.md): 'payment' (the seed's rule:
-- redeeming a payment's handoff code verifies the address given with it) or 'mailbox' (only a code mailed to the
-- address verifies it). Existing projects keep the seed's rule. Written only by `TenantProjection`.
ALTER TABLE projects
    ADD COLUMN email_verification text NOT NULL DEFAULT 'payment'
        CHECK (email_verification IN ('payment', 'mailbox'));

-- The projection moves the setting (0014 grants UPDATE column by column).
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        GRANT UPDATE (email_verification) ON projects TO handoff_app;
    END IF;
END
$$;
