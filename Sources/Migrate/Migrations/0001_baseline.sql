-- Baseline: settings every later migration relies on.
-- Sessions of this database read and write timestamps in UTC.
DO $$
BEGIN
    EXECUTE format('ALTER DATABASE %I SET timezone TO %L', current_database(), 'UTC');
END
$$;
