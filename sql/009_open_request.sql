-- A data request's opening, in the transaction's first round trip: the session, the route group
-- membership, the organization by slug and the caller's membership with its role permissions.
-- Each setting is made only once the facts before it hold: the user once the session stands
-- (and belongs to the request's route group), the organization once the user is its member in
-- that group. The server turns the answer into its statuses in the documented order; it rolls
-- the transaction back on any refusal.
--
-- PL/pgSQL keeps each inner statement's plan for the life of the connection, so the opening is
-- planned once per connection even when it travels as a simple query (which transaction
-- poolers carry). SECURITY INVOKER: it reads as gatehouse_app, under the same policies.
CREATE FUNCTION gatehouse_open_request(
  session_id uuid,
  claimed_user_id integer,
  claimed_route_group text,
  open_context boolean,
  route_group text,
  organization_slug text
) RETURNS TABLE (
  session_valid boolean,
  user_name text,
  user_email text,
  group_member boolean,
  organization_id integer,
  organization_name text,
  role_id integer,
  role_slug text,
  role_permissions text[],
  granted_permissions text[],
  denied_permissions text[]
) LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  session_valid := false;
  group_member := false;
  SELECT users.name, users.email INTO user_name, user_email
    FROM sessions JOIN users ON users.id = sessions.user_id
   WHERE sessions.id = gatehouse_open_request.session_id
     AND sessions.revoked_at IS NULL
     AND sessions.expires_at > now()
     AND sessions.user_id = claimed_user_id
     AND sessions.route_group IS NOT DISTINCT FROM claimed_route_group;
  session_valid := FOUND;
  IF NOT session_valid OR NOT open_context THEN
    RETURN NEXT;
    RETURN;
  END IF;

  PERFORM set_config('gatehouse.user_id', claimed_user_id::text, true);
  group_member := EXISTS (
    SELECT 1 FROM user_roles
     WHERE user_roles.user_id = claimed_user_id AND user_roles.route_group = gatehouse_open_request.route_group);

  IF organization_slug IS NOT NULL THEN
    SELECT organizations.id, organizations.name INTO organization_id, organization_name
      FROM organizations WHERE organizations.slug = organization_slug;
    IF FOUND THEN
      SELECT user_roles.role_id, roles.slug, user_roles.granted_permissions, user_roles.denied_permissions
        INTO role_id, role_slug, granted_permissions, denied_permissions
        FROM user_roles JOIN roles ON roles.id = user_roles.role_id
       WHERE user_roles.organization_id = gatehouse_open_request.organization_id
         AND user_roles.user_id = claimed_user_id
         AND user_roles.route_group = gatehouse_open_request.route_group;
      IF FOUND THEN
        PERFORM set_config('gatehouse.organization_id', organization_id::text, true);
        SELECT org_role_permissions.permissions INTO role_permissions
          FROM org_role_permissions
         WHERE org_role_permissions.organization_id = gatehouse_open_request.organization_id
           AND org_role_permissions.role_id = gatehouse_open_request.role_id;
        role_permissions := coalesce(role_permissions, '{}');
      END IF;
    END IF;
  END IF;
  RETURN NEXT;
END
$$;

REVOKE EXECUTE ON FUNCTION gatehouse_open_request(uuid, integer, text, boolean, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION gatehouse_open_request(uuid, integer, text, boolean, text, text) TO gatehouse_app;
