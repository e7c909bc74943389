-- Refused requests of each organization (`decisionLog: {store: 'database'}`): a tenant table like
-- any other, so a member reads only their organization's refusals and analysts only granted ones.
-- A refusal outside any organization (a 401, an unknown organization) stays in the request log.
CREATE TABLE decision_logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  request_id text NOT NULL,
  user_id integer,
  route_group text,
  method text NOT NULL,
  route text NOT NULL,
  status smallint NOT NULL,
  gate text NOT NULL,
  permission text,
  policy text,
  created_at timestamptz NOT NULL DEFAULT now()
);
SELECT gatehouse.enable_tenant_table('decision_logs');

-- The service deletes what is older than its retention, in every organization. It runs as
-- gatehouse_app under the same policies: it enters each organization's context in turn, as the
-- service may, and leaves the context as it found it.
CREATE FUNCTION gatehouse_prune_decision_logs(older_than timestamptz) RETURNS bigint
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  previous text := current_setting('gatehouse.organization_id', true);
  organization integer;
  deleted bigint := 0;
  count bigint;
BEGIN
  FOR organization IN SELECT id FROM organizations LOOP
    PERFORM set_config('gatehouse.organization_id', organization::text, true);
    DELETE FROM decision_logs WHERE created_at < older_than;
    GET DIAGNOSTICS count = ROW_COUNT;
    deleted := deleted + count;
  END LOOP;
  PERFORM set_config('gatehouse.organization_id', coalesce(previous, ''), true);
  RETURN deleted;
END
$$;

-- Which organization a row of a tenant table belongs to, for an explanation that must tell "not
-- in this organization" from "missing" or "hidden by row-level security". Only the organization
-- id leaves, never the row; same method as the pruning, same policies.
CREATE FUNCTION gatehouse_record_organization(tenant_table regclass, record_id bigint) RETURNS integer
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  previous text := current_setting('gatehouse.organization_id', true);
  organization integer;
  found_in integer;
BEGIN
  FOR organization IN SELECT id FROM organizations LOOP
    PERFORM set_config('gatehouse.organization_id', organization::text, true);
    EXECUTE format('SELECT organization_id FROM %s WHERE id = $1', tenant_table) INTO found_in USING record_id;
    EXIT WHEN found_in IS NOT NULL;
  END LOOP;
  PERFORM set_config('gatehouse.organization_id', coalesce(previous, ''), true);
  RETURN found_in;
END
$$;

REVOKE EXECUTE ON FUNCTION gatehouse_prune_decision_logs(timestamptz), gatehouse_record_organization(regclass, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION gatehouse_prune_decision_logs(timestamptz), gatehouse_record_organization(regclass, bigint) TO gatehouse_app;
