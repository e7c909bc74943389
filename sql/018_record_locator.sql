-- Where a record lives, for an explanation that must tell "hidden by row-level security" (in this
-- organization, but a policy hides it from the member) from "not in this organization" and
-- "missing". The service cannot tell them apart under its own policies, which hide both, so a
-- role of its own looks past them: gatehouse_record_locator logs in nowhere, reads only the id
-- and organization_id columns of tenant tables, and acts only through the one function below,
-- which answers an organization id and never a row.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'gatehouse_record_locator') THEN
    CREATE ROLE gatehouse_record_locator NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
  END IF;
END
$$;

-- A non-superuser owner must be a member to hand the function over below.
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT gatehouse_record_locator TO %I', current_user);
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO gatehouse_record_locator;

CREATE FUNCTION gatehouse.let_locate_records(tenant_table regclass) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  EXECUTE format('DROP POLICY IF EXISTS record_locator ON %s', tenant_table);
  EXECUTE format('CREATE POLICY record_locator ON %s FOR SELECT TO gatehouse_record_locator USING (true)', tenant_table);
  EXECUTE format('GRANT SELECT (id, organization_id) ON %s TO gatehouse_record_locator', tenant_table);
END
$$;

CREATE OR REPLACE FUNCTION gatehouse.enable_tenant_table(tenant_table regclass, analyst_hidden name[] DEFAULT NULL) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM gatehouse.enable_row_level_security(tenant_table);
  PERFORM gatehouse.expose_to_analysts(tenant_table, analyst_hidden);
  PERFORM gatehouse.let_locate_records(tenant_table);
END
$$;

-- The tenant tables made before this migration: those with the service's tenant policy and a key.
SELECT gatehouse.let_locate_records(p.polrelid)
FROM pg_policy p
WHERE p.polname = 'app_tenant'
  AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = p.polrelid AND a.attname = 'id' AND NOT a.attisdropped)
  AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = p.polrelid AND a.attname = 'organization_id' AND NOT a.attisdropped);

CREATE OR REPLACE FUNCTION gatehouse_record_organization(tenant_table regclass, record_id bigint) RETURNS integer
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  found_in integer;
BEGIN
  EXECUTE format('SELECT organization_id FROM %s WHERE id = $1', tenant_table) INTO found_in USING record_id;
  RETURN found_in;
END
$$;
-- A new owner needs CREATE on the schema to be handed a function; it keeps none afterwards.
GRANT CREATE ON SCHEMA public TO gatehouse_record_locator;
ALTER FUNCTION gatehouse_record_organization(regclass, bigint) OWNER TO gatehouse_record_locator;
REVOKE CREATE ON SCHEMA public FROM gatehouse_record_locator;
