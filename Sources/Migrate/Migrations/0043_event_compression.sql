-- Event payloads longer than about 2 kB are compressed where they are stored (TOAST): a store notification keeps
-- its whole signed body (about 14 kB of base64 in `data`), and Postgres' default compression, pglz, was the largest
-- single cost of appending one (bench/store, docs/performance.md "Round trips per command"). lz4 compresses several
-- times faster at a similar ratio. Only values written from now on use it; those stored before keep pglz and read
-- as before. The hash chain covers the canonical text, not the stored bytes, so it is not affected.
ALTER TABLE events ALTER COLUMN data SET COMPRESSION lz4;
ALTER TABLE events ALTER COLUMN metadata SET COMPRESSION lz4;
