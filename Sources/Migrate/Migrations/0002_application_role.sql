-- The application role `handoff_app` (used by serve and work) gets data privileges on every table the owner
-- creates from now on; tables that must stay append-only revoke UPDATE/DELETE/TRUNCATE in their migration.
-- The role is created by the operator (infra/dev and infra/test do it) before `handoff migrate` runs; when it
-- does not exist the grants are skipped with a notice, so a deployment with other role names can grant itself.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        EXECUTE 'GRANT USAGE ON SCHEMA public TO handoff_app';
        EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO handoff_app';
        EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO handoff_app';
    ELSE
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
    END IF;
END
$$;
