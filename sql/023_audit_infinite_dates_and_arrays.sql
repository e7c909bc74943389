-- The service now reads an infinite date, and an infinite timestamp or date inside an array, as
-- the text PostgreSQL writes, as it already read a timestamp alone (server/db/connection/row-types.ts):
-- pg's parsers read each as the number Infinity, which JSON writes as null, so a client writing
-- the record back stored NULL. The audit values written in SQL follow. Every instant reaches
-- gatehouse_audit_instant (a timestamp, a timestamptz or a date, alone or as an array's
-- element), so an infinite one keeps its text there, and 022's case for the columns alone is
-- no longer needed.

CREATE OR REPLACE FUNCTION gatehouse_audit_instant(instant timestamptz) RETURNS jsonb
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE
    WHEN NOT isfinite(instant) THEN to_jsonb(instant::text)
    ELSE to_jsonb(
      CASE WHEN extract(year FROM utc) > 9999 THEN '+' || lpad(extract(year FROM utc)::text, 6, '0') || to_char(utc, '-MM-DD"T"HH24:MI:SS')
        ELSE to_char(utc, 'YYYY-MM-DD"T"HH24:MI:SS') END
      || '.' || lpad(floor(1000 * ('0.' || to_char(utc, 'US'))::float8)::text, 3, '0') || 'Z')
  END
  FROM (SELECT instant AT TIME ZONE 'UTC' AS utc) AS instant_in_utc
$$;

CREATE OR REPLACE FUNCTION gatehouse_audit_values(tbl regclass, record jsonb, zone text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT coalesce(jsonb_object_agg(columns.key, gatehouse_audit_value(columns.value, attribute.atttypid, zone)), '{}')
  FROM jsonb_each(record) AS columns
  JOIN pg_attribute AS attribute ON attribute.attrelid = tbl AND attribute.attname = columns.key AND NOT attribute.attisdropped
$$;

DROP FUNCTION gatehouse_audit_base_type(oid);
