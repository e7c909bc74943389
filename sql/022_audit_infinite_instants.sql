-- The service reads an infinite timestamp as the text PostgreSQL writes, 'infinity' or
-- '-infinity' (server/db/connection/row-types.ts), where the pg driver reads the number Infinity,
-- which JSON writes as null. An audit row's values written in SQL (017_audit_values.sql) still
-- wrote null: a record's infinite timestamp was lost from its audit trail, and every update of
-- such a record listed the timestamp as changed, from 'infinity' (the row read before, as the
-- service read it) to null. A column of timestamp or timestamptz (or a domain over one) now keeps
-- the text; arrays and dates keep null, as the service reads them.

CREATE FUNCTION gatehouse_audit_base_type(type_id oid) RETURNS oid
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  base oid := type_id;
  domain_base oid;
BEGIN
  LOOP
    SELECT typbasetype INTO domain_base FROM pg_type WHERE oid = base AND typtype = 'd';
    EXIT WHEN domain_base IS NULL;
    base := domain_base;
  END LOOP;
  RETURN base;
END
$$;

CREATE OR REPLACE FUNCTION gatehouse_audit_values(tbl regclass, record jsonb, zone text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT coalesce(jsonb_object_agg(columns.key,
    CASE
      WHEN columns.value IN ('"infinity"', '"-infinity"') AND gatehouse_audit_base_type(attribute.atttypid) IN ('timestamp'::regtype, 'timestamptz'::regtype)
        THEN columns.value
      ELSE gatehouse_audit_value(columns.value, attribute.atttypid, zone)
    END), '{}')
  FROM jsonb_each(record) AS columns
  JOIN pg_attribute AS attribute ON attribute.attrelid = tbl AND attribute.attname = columns.key AND NOT attribute.attisdropped
$$;

REVOKE EXECUTE ON FUNCTION gatehouse_audit_base_type(oid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION gatehouse_audit_base_type(oid) TO gatehouse_app;
