-- Opaque buyer ids (issue 12 §7): a guid is any 1–64 characters of [A-Za-z0-9._:-] (the seed's `abc123def456`, an
-- Android ANDROID_ID, an iOS identifierForVendor in upper case), compared exactly and answered as first given; ids
-- Handoff mints stay lowercase version-4 UUIDs. Every guid column becomes text.
--
-- `USING guid::text` writes each stored uuid as its lowercase canonical text: what every answer, event, stream id
-- (`buyer-<guid>`) and personal-data subject already used for it, so existing buyers read back unchanged and
-- `handoff replay` (which folds the events' text) rebuilds the same rows.
-- COLLATE "C" compares and orders bytes: exactly the comparison the rule asks for (`ABC` and `abc` are two buyers),
-- and primary keys and indexes that no upgrade of the system's collation library can reorder.
-- The CHECKs repeat the shape `BuyerGuid` enforces (Sources/Domain/BuyerGuid.swift); the parser also refuses unset
-- device ids (all zeros, the max UUID, null/nil/undefined) and `.`/`..` at the edge, which the tables need not know.
--
-- Each ALTER rewrites its table and rebuilds its indexes (buyers_pkey, buyer_emails_pkey, payments_guid_idx) under
-- an ACCESS EXCLUSIVE lock. Stop every process of the previous build first: its SQL compares guids as `$1::uuid`,
-- which a text column refuses (docs/decisions.md, "Opaque buyer ids").

ALTER TABLE buyers
    ALTER COLUMN guid TYPE text COLLATE "C" USING guid::text,
    ADD CONSTRAINT buyers_guid_format CHECK (guid ~ '^[A-Za-z0-9._:-]{1,64}$');

ALTER TABLE buyer_emails
    ALTER COLUMN guid TYPE text COLLATE "C" USING guid::text,
    ADD CONSTRAINT buyer_emails_guid_format CHECK (guid ~ '^[A-Za-z0-9._:-]{1,64}$');

ALTER TABLE payments
    ALTER COLUMN guid TYPE text COLLATE "C" USING guid::text,
    ADD CONSTRAINT payments_guid_format CHECK (guid ~ '^[A-Za-z0-9._:-]{1,64}$');

ALTER TABLE handoff_codes
    ALTER COLUMN guid TYPE text COLLATE "C" USING guid::text,
    ADD CONSTRAINT handoff_codes_guid_format CHECK (guid ~ '^[A-Za-z0-9._:-]{1,64}$');

ALTER TABLE fingerprints
    ALTER COLUMN guid TYPE text COLLATE "C" USING guid::text,
    ADD CONSTRAINT fingerprints_guid_format CHECK (guid ~ '^[A-Za-z0-9._:-]{1,64}$');
