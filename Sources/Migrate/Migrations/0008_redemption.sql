-- Redeeming codes (issue 5, "Resolve a code") and room for recovery codes (issue 6).
--
-- handoff_codes.source: 'payment' (minted with a payment: one handoff code and one install token per payment) or
-- 'recovery' (a fresh handoff code mailed to a buyer who has a payment; any number per payment).
-- handoff_codes.email_hash: the lookup hash of the e-mail that redeeming this code verifies (NULL: none).
-- Rows minted before this migration are payment codes that verify no e-mail (their events carry neither field).
ALTER TABLE handoff_codes
    ADD COLUMN source text NOT NULL DEFAULT 'payment' CHECK (source IN ('payment', 'recovery')),
    ADD COLUMN email_hash text CHECK (email_hash ~ '^[0-9a-f]{64}$'),
    ADD CONSTRAINT handoff_codes_recovery_kind_check CHECK (source = 'payment' OR kind = 'handoff');

-- One code of each kind per payment still holds for payment codes only.
ALTER TABLE handoff_codes DROP CONSTRAINT handoff_codes_payment_kind_key;
CREATE UNIQUE INDEX handoff_codes_payment_kind_key ON handoff_codes (org_id, payment_id, kind)
    WHERE source = 'payment';
