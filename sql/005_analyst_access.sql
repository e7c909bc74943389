-- Read-only access for analysts: LOGIN roles that are members of gatehouse_analyst, each seeing
-- the organizations granted to it here (`npx gatehouse analyst grant|revoke`).
--
-- The policies key on session_user, the role that authenticated. An analyst can change settings
-- and (where it is a member) its current role, but never its session user, so nothing it can
-- run widens its view. They involve no setting and no SECURITY DEFINER function: every check
-- runs with the analyst's own privileges.
CREATE TABLE analyst_grants (
  role_name text NOT NULL CHECK (length(role_name) BETWEEN 1 AND 63),
  organization_id integer NOT NULL REFERENCES organizations ON DELETE CASCADE,
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (role_name, organization_id)
);
CREATE INDEX analyst_grants_organization_id_idx ON analyst_grants (organization_id);

-- Access-control metadata written only by the owner (the CLI), so RLS is enabled for the
-- analysts' benefit but not forced on the owner. The service has no privilege on it at all.
ALTER TABLE analyst_grants ENABLE ROW LEVEL SECURITY;
CREATE POLICY analyst_own ON analyst_grants FOR SELECT TO gatehouse_analyst
  USING (role_name = session_user);
GRANT SELECT ON analyst_grants TO gatehouse_analyst;

CREATE POLICY analyst_read ON organizations FOR SELECT TO gatehouse_analyst
  USING (id IN (SELECT organization_id FROM analyst_grants WHERE role_name = session_user));
GRANT SELECT ON organizations TO gatehouse_analyst;

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['user_roles', 'org_role_permissions', 'invitations', 'audit_logs'] LOOP
    EXECUTE format(
      'CREATE POLICY analyst_read ON %I FOR SELECT TO gatehouse_analyst
         USING (organization_id IN (SELECT organization_id FROM analyst_grants WHERE role_name = session_user))',
      tenant_table);
  END LOOP;
END
$$;
GRANT SELECT ON user_roles, org_role_permissions, audit_logs TO gatehouse_analyst;
-- Not token_hash: with it an analyst could look up a pending invitation as the service does.
GRANT SELECT (id, organization_id, email, role_id, route_group, status, invited_by, expires_at, accepted_at, created_at, updated_at)
  ON invitations TO gatehouse_analyst;

-- Role names and slugs are shared reference data, needed to read user_roles.
GRANT SELECT ON roles TO gatehouse_analyst;

-- Users belong to no tenant, so the service keeps seeing all of them; an analyst sees the
-- members of its granted organizations and, through column privileges, never a password hash
-- or the service-wide permission lists.
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
CREATE POLICY app_all ON users FOR ALL TO gatehouse_app USING (true) WITH CHECK (true);
CREATE POLICY analyst_read ON users FOR SELECT TO gatehouse_analyst
  USING (id IN (
    SELECT user_id FROM user_roles
    WHERE organization_id IN (SELECT organization_id FROM analyst_grants WHERE role_name = session_user)));
GRANT SELECT (id, name, email, created_at, updated_at) ON users TO gatehouse_analyst;
