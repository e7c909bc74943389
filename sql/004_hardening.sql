-- Closes holes found auditing 001-003. Each block says which one.

-- Functions are EXECUTE-able by PUBLIC unless revoked, so any role of the cluster that can
-- connect (analysts included) could call them. Grant each function to who needs it instead, and
-- make that the default for functions later migrations create. Trigger functions need no
-- EXECUTE grant: PostgreSQL checks that privilege only when the trigger is created.
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

-- Trigger functions run with the caller's search_path, where pg_temp comes first for relations:
-- pinning it, pg_temp last, keeps a caller's temporary table from standing in for a real one.
ALTER FUNCTION touch_updated_at() SET search_path = pg_catalog, pg_temp;

-- gatehouse_organization_id() and gatehouse_user_id() keep no SET clause on purpose: it would
-- stop the planner from inlining them into the policies and make every call save and restore
-- the setting. They call only pg_catalog functions, which a caller cannot shadow.

-- 003 granted the service every table that existed then, which includes the migration
-- runner's own bookkeeping.
DO $$
BEGIN
  IF to_regclass('gatehouse_migrations') IS NOT NULL THEN
    REVOKE ALL ON TABLE gatehouse_migrations FROM gatehouse_app;
  END IF;
END
$$;

-- The audit trail is append-only for the service: a compromised request cannot rewrite its
-- own history. Deleting an organization still removes its rows through the foreign key.
REVOKE UPDATE, DELETE ON audit_logs FROM gatehouse_app;

-- 003 let a user-context request update or delete that user's memberships in any organization.
-- Reading them stays allowed (login lists them); writing is limited to the organization in
-- context, or to the user's own organization-less memberships.
DROP POLICY app_tenant ON user_roles;
CREATE POLICY app_read ON user_roles FOR SELECT TO gatehouse_app
  USING (organization_id = gatehouse_organization_id() OR user_id = gatehouse_user_id());
CREATE POLICY app_create ON user_roles FOR INSERT TO gatehouse_app
  WITH CHECK (organization_id = gatehouse_organization_id()
    OR (organization_id IS NULL AND user_id = gatehouse_user_id()));
CREATE POLICY app_update ON user_roles FOR UPDATE TO gatehouse_app
  USING (organization_id = gatehouse_organization_id()
    OR (organization_id IS NULL AND user_id = gatehouse_user_id()))
  WITH CHECK (organization_id = gatehouse_organization_id()
    OR (organization_id IS NULL AND user_id = gatehouse_user_id()));
CREATE POLICY app_delete ON user_roles FOR DELETE TO gatehouse_app
  USING (organization_id = gatehouse_organization_id()
    OR (organization_id IS NULL AND user_id = gatehouse_user_id()));

-- Deleting a user sets these references to NULL or cascades; without an index each delete
-- scans the whole table.
CREATE INDEX audit_logs_user_id_idx ON audit_logs (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX password_resets_user_id_idx ON password_resets (user_id);
