-- Per-subject (per-buyer) data keys for crypto-shredding personal data (docs/personal-data.md).
-- `wrapped_key` is the 32-byte data key sealed with AES-256-GCM under the master key (HANDOFF_MASTER_KEY), with
-- the org id and subject id as associated data: nonce(12) ‖ ciphertext(32) ‖ tag(16) = 60 bytes.
-- Destroying a key sets `wrapped_key` to NULL and stamps `destroyed_at`; the row stays, so the subject's key is
-- never silently re-created and personal data sealed under the old key reads back as erased for good.
CREATE TABLE subject_keys (
    org_id       uuid        NOT NULL,
    subject_id   text        NOT NULL,
    wrapped_key  bytea,
    created_at   timestamptz NOT NULL DEFAULT now(),
    destroyed_at timestamptz,
    PRIMARY KEY (org_id, subject_id),
    CONSTRAINT subject_keys_subject_id_length CHECK (octet_length(subject_id) BETWEEN 1 AND 200),
    CONSTRAINT subject_keys_live_or_destroyed CHECK (
        (wrapped_key IS NOT NULL AND octet_length(wrapped_key) = 60 AND destroyed_at IS NULL)
        OR (wrapped_key IS NULL AND destroyed_at IS NOT NULL)
    )
);
