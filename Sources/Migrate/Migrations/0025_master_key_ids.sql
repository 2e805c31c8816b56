-- Master-key rotation (issue 16 §6, docs/operations.md "Rotating the master key"): each wrapped subject key names
-- the master key that wrapped it, so several master keys can be live while `handoff keys rotate master` re-wraps
-- every row under the new one, and the rows still under an old key can be counted.
-- `master_key_id` = first 8 bytes of HMAC-SHA256(master key, "handoff.master-key-id.v1") in hex (MasterKeyRing);
-- NULL for rows wrapped before this migration (tried under every configured key, re-wrapped by the rotation).
-- Adding a nullable column without a default rewrites nothing: the migration is instant on a large table.
-- The application role's table-wide SELECT and INSERT (0014) cover the column; it still has no UPDATE, so only
-- the owner (the rotation) changes a row, and only a live one (the rotation's UPDATE requires the wrapped key it
-- read, so an erasure in between wins).
ALTER TABLE subject_keys
    ADD COLUMN master_key_id text CONSTRAINT subject_keys_master_key_id_format CHECK (master_key_id ~ '^[0-9a-f]{16}$');

-- What `handoff keys status` and the rotation's progress count: live rows by master key.
CREATE INDEX subject_keys_live_by_master_key ON subject_keys (master_key_id) WHERE wrapped_key IS NOT NULL;
