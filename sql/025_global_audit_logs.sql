-- DESIGN.md 3: every tenant table carries organization_id NOT NULL, and without a tenant setting
-- the service reads none of its rows. 011 had audit_logs, a tenant table, also hold the trail of
-- models no organization owns (users) with no organization, read outside any organization. That
-- trail moves to a table of its own, and audit_logs is a tenant table like the others again.
CREATE TABLE global_audit_logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  model text NOT NULL,
  record_id text NOT NULL,
  action text NOT NULL,
  old_values jsonb,
  new_values jsonb,
  user_id integer REFERENCES users ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX global_audit_logs_record_idx ON global_audit_logs (model, record_id, id);
CREATE INDEX global_audit_logs_user_id_idx ON global_audit_logs (user_id) WHERE user_id IS NOT NULL;

-- Row-level security is forced on audit_logs, for its owner too: lifted while the rows move, so an
-- owner that is no superuser moves them as well.
ALTER TABLE audit_logs NO FORCE ROW LEVEL SECURITY;
INSERT INTO global_audit_logs (model, record_id, action, old_values, new_values, user_id, created_at)
  SELECT model, record_id, action, old_values, new_values, user_id, created_at FROM audit_logs WHERE organization_id IS NULL ORDER BY id;
DELETE FROM audit_logs WHERE organization_id IS NULL;
ALTER TABLE audit_logs FORCE ROW LEVEL SECURITY;
ALTER TABLE audit_logs ALTER COLUMN organization_id SET NOT NULL;

DROP POLICY app_tenant ON audit_logs;
CREATE POLICY app_tenant ON audit_logs FOR ALL TO gatehouse_app
  USING (organization_id = gatehouse_organization_id())
  WITH CHECK (organization_id = gatehouse_organization_id());

-- The service reads this trail only outside any organization (a non-tenant route group), where a
-- user's history is read, and appends to it only as the user who acts; append-only like
-- audit_logs. Analysts, granted per organization, get nothing of it.
ALTER TABLE global_audit_logs ENABLE ROW LEVEL SECURITY;
ALTER TABLE global_audit_logs FORCE ROW LEVEL SECURITY;
CREATE POLICY app_read ON global_audit_logs FOR SELECT TO gatehouse_app USING (gatehouse_organization_id() IS NULL);
CREATE POLICY app_append ON global_audit_logs FOR INSERT TO gatehouse_app WITH CHECK (user_id = gatehouse_user_id());
GRANT SELECT, INSERT ON global_audit_logs TO gatehouse_app;
