-- Tenant context lives in transaction-local settings (set_config(..., true)), written only by
-- server/db withTenant. A missing or empty setting yields NULL, and NULL matches no row.
CREATE FUNCTION gatehouse_organization_id() RETURNS integer LANGUAGE sql STABLE AS
$$ SELECT NULLIF(current_setting('gatehouse.organization_id', true), '')::integer $$;

CREATE FUNCTION gatehouse_user_id() RETURNS integer LANGUAGE sql STABLE AS
$$ SELECT NULLIF(current_setting('gatehouse.user_id', true), '')::integer $$;

GRANT EXECUTE ON FUNCTION gatehouse_organization_id(), gatehouse_user_id() TO gatehouse_app;

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO gatehouse_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO gatehouse_app;
REVOKE INSERT, UPDATE, DELETE ON roles FROM gatehouse_app;

ALTER TABLE organizations ENABLE ROW LEVEL SECURITY;
ALTER TABLE organizations FORCE ROW LEVEL SECURITY;
-- The organization table is the tenant root: the service looks organizations up by slug before
-- any context exists (and any signed-in user may create one), but changes only its own.
CREATE POLICY app_read ON organizations FOR SELECT TO gatehouse_app USING (true);
CREATE POLICY app_create ON organizations FOR INSERT TO gatehouse_app WITH CHECK (true);
CREATE POLICY app_update ON organizations FOR UPDATE TO gatehouse_app
  USING (id = gatehouse_organization_id()) WITH CHECK (id = gatehouse_organization_id());
CREATE POLICY app_delete ON organizations FOR DELETE TO gatehouse_app
  USING (id = gatehouse_organization_id());

ALTER TABLE user_roles ENABLE ROW LEVEL SECURITY;
ALTER TABLE user_roles FORCE ROW LEVEL SECURITY;
-- A user's own memberships are visible without an organization (login picks the default one).
CREATE POLICY app_tenant ON user_roles FOR ALL TO gatehouse_app
  USING (organization_id = gatehouse_organization_id() OR user_id = gatehouse_user_id())
  WITH CHECK (organization_id = gatehouse_organization_id()
    OR (organization_id IS NULL AND user_id = gatehouse_user_id()));

ALTER TABLE invitations ENABLE ROW LEVEL SECURITY;
ALTER TABLE invitations FORCE ROW LEVEL SECURITY;
-- Holding an invitation's token is the authority to read and accept it from outside the tenant.
CREATE POLICY app_tenant ON invitations FOR ALL TO gatehouse_app
  USING (organization_id = gatehouse_organization_id()
    OR token_hash = NULLIF(current_setting('gatehouse.invitation_token_hash', true), ''))
  WITH CHECK (organization_id = gatehouse_organization_id()
    OR token_hash = NULLIF(current_setting('gatehouse.invitation_token_hash', true), ''));

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['org_role_permissions', 'audit_logs'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format(
      'CREATE POLICY app_tenant ON %I FOR ALL TO gatehouse_app
         USING (organization_id = gatehouse_organization_id())
         WITH CHECK (organization_id = gatehouse_organization_id())',
      tenant_table);
  END LOOP;
END
$$;
