-- Store notifications (issue 14, docs/store-notifications.md): one row per accepted notification, written only by
-- the inline projection `StoreProjection` from `StoreNotificationReceived`, rebuilt by `handoff replay`. Its primary
-- key is the dedupe rule: one notification per (app, store, the store's own id), also under concurrent posts — a
-- racer's append fails on this key and `EventLog.transact` runs it again, when it finds the winner's row.
CREATE TABLE store_notifications (
    org_id            uuid        NOT NULL,
    app_id            uuid        NOT NULL,
    store             text        NOT NULL CHECK (store IN ('apple', 'google', 'revenuecat')),
    notification_id   text        NOT NULL CHECK (length(notification_id) BETWEEN 1 AND 256),
    event_id          uuid        NOT NULL UNIQUE,
    notification_type text        NOT NULL,
    verified          boolean     NOT NULL,
    guid              text COLLATE "C",
    received_at       timestamptz NOT NULL,
    PRIMARY KEY (org_id, app_id, store, notification_id)
);
CREATE INDEX store_notifications_received_idx ON store_notifications (org_id, app_id, received_at);

ALTER TABLE store_notifications ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON store_notifications
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- Store effects move a payment's expiry (renewal, expiry) and its buyer (RevenueCat TRANSFER).
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        GRANT SELECT, INSERT ON store_notifications TO handoff_app;
        GRANT UPDATE (expires_at, guid) ON payments TO handoff_app;
    END IF;
END
$$;
