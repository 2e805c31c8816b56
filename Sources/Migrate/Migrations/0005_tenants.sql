-- Tenancy projections (DESIGN.md §2): organizations, their projects' settings, and the projects' secret keys.
-- Written only by the inline projection `TenantProjection`; rebuilt from the log by `handoff replay`.

CREATE TABLE organizations (
    org_id     uuid        PRIMARY KEY,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE projects (
    project_id      uuid        PRIMARY KEY,
    org_id          uuid        NOT NULL,
    name            text        NOT NULL,
    paywall_url     text,
    return_scheme   text,
    android_package text,
    ios_bundle_id   text,
    fingerprint     boolean     NOT NULL,
    tracker         text        NOT NULL CHECK (tracker IN ('none', 'appsflyer', 'adjust')),
    tracker_link    text,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
CREATE INDEX projects_org_id_idx ON projects (org_id);

-- Only SHA-256 of the key text is kept (docs/identity.md); the prefix is the key's first 16 characters.
CREATE TABLE secret_keys (
    key_hash   bytea       NOT NULL CHECK (length(key_hash) = 32),
    prefix     text        NOT NULL,
    project_id uuid        NOT NULL,
    org_id     uuid        NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz,
    CONSTRAINT secret_keys_key_hash_key UNIQUE (key_hash)
);
CREATE INDEX secret_keys_project_id_prefix_idx ON secret_keys (project_id, prefix);

-- Projections are folded from the log, never deleted by the service.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        EXECUTE 'REVOKE DELETE, TRUNCATE ON organizations, projects, secret_keys FROM handoff_app';
    END IF;
END
$$;
