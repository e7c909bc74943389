-- Columns analysts never see. A table shown to analysts grants gatehouse_analyst SELECT on every
-- column but the hidden ones, so no query path reaches those: PostgreSQL checks column privileges
-- wherever a query names a column (select list, WHERE, COPY, a view or function the analyst
-- makes, a whole-row reference), and pg_stats lists only columns the reader may select. BI tools
-- send `SELECT *`, which a column grant refuses, so each such table also gets a view of the same
-- name in the `analytics` schema selecting exactly its visible columns. The views are
-- security_invoker: row-level security and the column grants apply to the analyst reading them,
-- never to the view's owner. `gatehouse analyst grant` puts analytics first on the analyst's
-- search_path, so `SELECT * FROM posts` reads analytics.posts.
CREATE SCHEMA analytics;
REVOKE ALL ON SCHEMA analytics FROM PUBLIC;
GRANT USAGE ON SCHEMA analytics TO gatehouse_analyst;

-- The declared hidden columns, per table: the owner's record, read by `gatehouse db verify`.
CREATE TABLE gatehouse.analyst_hidden_columns (
  table_name regclass NOT NULL,
  column_name name NOT NULL,
  PRIMARY KEY (table_name, column_name)
);

-- Grants gatehouse_analyst SELECT on the table's columns except the hidden ones and (re)makes
-- its analytics view. `analyst_hidden` replaces the table's hidden columns; NULL keeps those
-- declared before. Call it again after adding columns: a new column stays unreadable to
-- analysts (fail closed) until then. Row-level security is not its business: the table keeps
-- the analyst policy it has.
CREATE FUNCTION gatehouse.expose_to_analysts(exposed regclass, analyst_hidden name[] DEFAULT NULL) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  unknown name;
  view_name name := (SELECT relname FROM pg_class WHERE oid = exposed);
  every_column text;
  visible text;
BEGIN
  IF analyst_hidden IS NOT NULL THEN
    SELECT h INTO unknown FROM unnest(analyst_hidden) AS h
    WHERE NOT EXISTS (SELECT FROM pg_attribute WHERE attrelid = exposed AND attname = h AND attnum > 0 AND NOT attisdropped);
    IF unknown IS NOT NULL THEN
      RAISE EXCEPTION 'table % has no column % to hide from analysts', exposed, unknown USING ERRCODE = 'undefined_column';
    END IF;
    DELETE FROM gatehouse.analyst_hidden_columns WHERE table_name = exposed;
    INSERT INTO gatehouse.analyst_hidden_columns SELECT DISTINCT exposed, h FROM unnest(analyst_hidden) AS h;
  END IF;
  SELECT string_agg(format('%I', attname), ', ' ORDER BY attnum),
         string_agg(format('%I', attname), ', ' ORDER BY attnum) FILTER (
           WHERE attname NOT IN (SELECT column_name FROM gatehouse.analyst_hidden_columns WHERE table_name = exposed))
    INTO every_column, visible
    FROM pg_attribute WHERE attrelid = exposed AND attnum > 0 AND NOT attisdropped;
  IF visible IS NULL THEN
    RAISE EXCEPTION 'table % would show analysts no column', exposed USING ERRCODE = 'invalid_parameter_value';
  END IF;
  EXECUTE format('REVOKE SELECT ON %s FROM gatehouse_analyst', exposed);
  EXECUTE format('REVOKE SELECT (%s) ON %s FROM gatehouse_analyst', every_column, exposed);
  EXECUTE format('GRANT SELECT (%s) ON %s TO gatehouse_analyst', visible, exposed);
  EXECUTE format('DROP VIEW IF EXISTS analytics.%I', view_name);
  EXECUTE format('CREATE VIEW analytics.%I WITH (security_invoker = true) AS SELECT %s FROM %s', view_name, visible, exposed);
  EXECUTE format('GRANT SELECT ON analytics.%I TO gatehouse_analyst', view_name);
END
$$;

-- enable_tenant_table gains `analyst_hidden`: 007's function keeps every other safeguard under
-- a name of its own, and the new one adds the column grants and the view. enable_child_table
-- finds the new one by name when it runs.
ALTER FUNCTION gatehouse.enable_tenant_table(regclass) RENAME TO enable_row_level_security;
CREATE FUNCTION gatehouse.enable_tenant_table(tenant_table regclass, analyst_hidden name[] DEFAULT NULL) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM gatehouse.enable_row_level_security(tenant_table);
  PERFORM gatehouse.expose_to_analysts(tenant_table, analyst_hidden);
END
$$;

-- The core's tables analysts read. Users keep their password hash and service-wide permission
-- lists, invitations their token hash. An audit entry's values can hold any column of any
-- model, hidden ones included, so analysts read who changed what and when, not the values.
SELECT gatehouse.expose_to_analysts('users', ARRAY['password_hash', 'permissions', 'granted_permissions', 'denied_permissions']);
SELECT gatehouse.expose_to_analysts('invitations', ARRAY['token_hash']);
SELECT gatehouse.expose_to_analysts('audit_logs', ARRAY['old_values', 'new_values']);
SELECT gatehouse.expose_to_analysts(table_name)
FROM unnest(ARRAY['organizations', 'roles', 'user_roles', 'org_role_permissions', 'analyst_grants']::regclass[]) AS table_name;

-- Application tables made tenant tables before this migration: all their columns stay readable
-- until their own migration declares hidden ones.
SELECT gatehouse.expose_to_analysts(c.oid)
FROM pg_class c
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
  AND has_table_privilege('gatehouse_analyst', c.oid, 'SELECT');
