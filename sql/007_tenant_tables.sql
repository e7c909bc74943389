-- One call turns an application's table into a tenant table, so no application copies the
-- row-level security recipe by hand (README: "Adding a tenant table?"). The functions live in
-- their own schema, callable only by the owner that runs migrations.
CREATE SCHEMA gatehouse;
REVOKE ALL ON SCHEMA gatehouse FROM PUBLIC;

-- ENABLE and FORCE row-level security, the service policy (USING and WITH CHECK), the analyst
-- policy, an index that starts with organization_id (unless one exists) and the grants. Safe to
-- call again: the policies are replaced, nothing is duplicated.
CREATE FUNCTION gatehouse.enable_tenant_table(tenant_table regclass) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  key_columns text;
  owned_sequence regclass;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_attribute WHERE attrelid = tenant_table AND attname = 'organization_id' AND attnotnull AND NOT attisdropped) THEN
    RAISE EXCEPTION 'table % needs an organization_id column that is NOT NULL to be a tenant table', tenant_table
      USING ERRCODE = 'invalid_table_definition';
  END IF;
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', tenant_table);

  EXECUTE format('DROP POLICY IF EXISTS app_tenant ON %s', tenant_table);
  EXECUTE format(
    'CREATE POLICY app_tenant ON %s FOR ALL TO gatehouse_app
       USING (organization_id = public.gatehouse_organization_id())
       WITH CHECK (organization_id = public.gatehouse_organization_id())',
    tenant_table);
  EXECUTE format('DROP POLICY IF EXISTS analyst_read ON %s', tenant_table);
  EXECUTE format(
    'CREATE POLICY analyst_read ON %s FOR SELECT TO gatehouse_analyst
       USING (organization_id IN (SELECT organization_id FROM public.analyst_grants WHERE role_name = session_user))',
    tenant_table);

  IF NOT EXISTS (
    SELECT FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
    WHERE i.indrelid = tenant_table AND a.attname = 'organization_id'
  ) THEN
    -- The primary key after organization_id serves a tenant's pages in key order too.
    SELECT string_agg(format(', %I', a.attname), '' ORDER BY k.ord) INTO key_columns
    FROM pg_index i CROSS JOIN unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
    WHERE i.indrelid = tenant_table AND i.indisprimary AND a.attname <> 'organization_id';
    EXECUTE format('CREATE INDEX ON %s (organization_id%s)', tenant_table, coalesce(key_columns, ''));
  END IF;

  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO gatehouse_app', tenant_table);
  EXECUTE format('GRANT SELECT ON %s TO gatehouse_analyst', tenant_table);
  FOR owned_sequence IN
    SELECT d.objid::regclass FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
    WHERE d.classid = 'pg_class'::regclass AND d.refobjid = tenant_table AND d.deptype IN ('a', 'i')
  LOOP
    EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %s TO gatehouse_app', owned_sequence);
  END LOOP;
END
$$;

-- A child row takes its organization from its parent (TG_ARGV: the parent table, qualified, and
-- the column holding the parent's id), so no caller ever chooses it. The lookup runs as the
-- caller under row-level security: another tenant's parent is not found.
CREATE FUNCTION gatehouse.inherit_organization() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  EXECUTE format('SELECT organization_id FROM %s WHERE id = ($1).%I', TG_ARGV[0], TG_ARGV[1])
    INTO NEW.organization_id USING NEW;
  IF NEW.organization_id IS NULL THEN
    RAISE EXCEPTION '% % not found', regexp_replace(TG_ARGV[1], '_id$', ''), to_jsonb(NEW) -> TG_ARGV[1]
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END
$$;

-- A tenant table whose rows belong to a parent's organization (comments -> posts through
-- post_id): the inheriting trigger, then everything enable_tenant_table gives.
CREATE FUNCTION gatehouse.enable_child_table(child_table regclass, parent_table regclass, parent_key name) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  parent_name text := (SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent_table);
  child_name name := (SELECT relname FROM pg_class WHERE oid = child_table);
BEGIN
  EXECUTE format(
    'CREATE OR REPLACE TRIGGER %I BEFORE INSERT OR UPDATE OF %I, organization_id ON %s
       FOR EACH ROW EXECUTE FUNCTION gatehouse.inherit_organization(%L, %L)',
    child_name || '_inherit_organization', parent_key, child_table, parent_name, parent_key);
  PERFORM gatehouse.enable_tenant_table(child_table);
END
$$;
