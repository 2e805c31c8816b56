-- Issue 20, ingest settings (docs/app-ingest.md "Settings" and "POST /v1/m/install"):
-- the Meta Install Referrer decryption key as a sealed, write-only app secret (like the RevenueCat secret, 0017),
-- the campaign a decrypted Meta Install Referrer names, kept with the install (0030), and Apple's attribution record
-- once the Apple Ads resolver (worker role `apple-ads`) ends an install's `pending` tier.
ALTER TABLE apps ADD COLUMN meta_install_referrer_key text CHECK (meta_install_referrer_key LIKE 'pd1.%');

-- The decrypted Meta Install Referrer (Meta's campaign JSON, compact), only with attribution consent.
ALTER TABLE app_installs ADD COLUMN meta_referrer text;
-- Apple's AdServices record (compact JSON) of an install Apple Ads attributed.
ALTER TABLE app_installs ADD COLUMN apple_ads_attribution text;

-- The application role: the app projection moves the new secret like the others (0017's column list, continued); the
-- install projection writes Apple's record with the resolved tier (0030's list, continued).
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT UPDATE (meta_install_referrer_key) ON apps TO handoff_app;
    GRANT UPDATE (apple_ads_attribution) ON app_installs TO handoff_app;
END
$$;
