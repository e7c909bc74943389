-- A data write and its audit row travel as one statement (server/audit/audited-write.ts), so the
-- write and its COMMIT go to PostgreSQL together. The row's values must read exactly as they did
-- when the service wrote them from Node: each column as the pg driver parses it (pg-types 2),
-- through JSON.stringify. These functions turn a row's to_jsonb into that JSON. Where they cannot
-- (docs/architecture/round-trips.md lists the column types), the value is PostgreSQL's own JSON.

-- A Date's toJSON: UTC, milliseconds, 'Z'. The driver's milliseconds are 1000 times the
-- fraction as a double, truncated by Date, computed here the same way; a year past 9999 is
-- written with a sign and six digits; an infinite instant is Infinity, which JSON writes as null.
CREATE FUNCTION gatehouse_audit_instant(instant timestamptz) RETURNS jsonb
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE
    WHEN NOT isfinite(instant) THEN 'null'::jsonb
    ELSE to_jsonb(
      CASE WHEN extract(year FROM utc) > 9999 THEN '+' || lpad(extract(year FROM utc)::text, 6, '0') || to_char(utc, '-MM-DD"T"HH24:MI:SS')
        ELSE to_char(utc, 'YYYY-MM-DD"T"HH24:MI:SS') END
      || '.' || lpad(floor(1000 * ('0.' || to_char(utc, 'US'))::float8)::text, 3, '0') || 'Z')
  END
  FROM (SELECT instant AT TIME ZONE 'UTC' AS utc) AS instant_in_utc
$$;

-- A float as the driver's parseFloat reads it: NaN and the infinities become null in JSON.
CREATE FUNCTION gatehouse_audit_float(value jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN number IN ('NaN', 'Infinity', '-Infinity') THEN 'null'::jsonb ELSE to_jsonb(number) END
  FROM (SELECT (value #>> '{}')::float8 AS number) AS parsed
$$;

-- One column's to_jsonb value as the driver's parse of its type through JSON.stringify. `zone`:
-- the Node process's time zone, in which the driver reads a timestamp without time zone and a date.
CREATE FUNCTION gatehouse_audit_value(value jsonb, type_id oid, zone text) RETURNS jsonb
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  base oid := type_id;
  domain_base oid;
  element oid;
  bytes bytea;
  place point;
BEGIN
  IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
    RETURN value;
  END IF;
  LOOP
    SELECT typbasetype INTO domain_base FROM pg_type WHERE oid = base AND typtype = 'd';
    EXIT WHEN domain_base IS NULL;
    base := domain_base;
  END LOOP;
  IF jsonb_typeof(value) = 'array' THEN
    -- The arrays the driver parses, element by element (numeric[] as floats); others it leaves as text.
    IF base NOT IN (1000, 1001, 1005, 1007, 1028, 1016, 1017, 1021, 1022, 1231, 1014, 1015, 1008, 1009, 1040, 1041, 651,
                    1115, 1182, 1185, 199, 3807, 3907, 2951, 791, 1183, 1270) THEN
      RETURN value;
    END IF;
    SELECT CASE WHEN base = 1231 THEN 701 ELSE typelem END INTO element FROM pg_type WHERE oid = base;
    RETURN (SELECT coalesce(jsonb_agg(gatehouse_audit_value(item, CASE WHEN jsonb_typeof(item) = 'array' THEN base ELSE element END, zone) ORDER BY position), '[]')
            FROM jsonb_array_elements(value) WITH ORDINALITY AS items(item, position));
  END IF;
  CASE base
    WHEN 1184 THEN RETURN gatehouse_audit_instant((value #>> '{}')::timestamptz);
    WHEN 1114 THEN RETURN gatehouse_audit_instant((value #>> '{}')::timestamp AT TIME ZONE zone);
    WHEN 1082 THEN RETURN gatehouse_audit_instant((value #>> '{}')::date::timestamp AT TIME ZONE zone);
    WHEN 20, 1700 THEN RETURN to_jsonb(value #>> '{}');
    WHEN 700, 701 THEN RETURN gatehouse_audit_float(value);
    WHEN 17 THEN
      bytes := decode(substr(value #>> '{}', 3), 'hex');
      RETURN jsonb_build_object('type', 'Buffer', 'data',
        (SELECT coalesce(jsonb_agg(get_byte(bytes, position) ORDER BY position), '[]') FROM generate_series(0, length(bytes) - 1) AS position));
    WHEN 600 THEN
      place := (value #>> '{}')::point;
      RETURN jsonb_build_object('x', place[0], 'y', place[1]);
    WHEN 718 THEN
      place := center((value #>> '{}')::circle);
      RETURN jsonb_build_object('x', place[0], 'y', place[1], 'radius', radius((value #>> '{}')::circle));
    ELSE RETURN value;
  END CASE;
END
$$;

-- A row of `tbl` (its to_jsonb) as the service wrote it from Node.
CREATE FUNCTION gatehouse_audit_values(tbl regclass, record jsonb, zone text) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT coalesce(jsonb_object_agg(columns.key, gatehouse_audit_value(columns.value, attribute.atttypid, zone)), '{}')
  FROM jsonb_each(record) AS columns
  JOIN pg_attribute AS attribute ON attribute.attrelid = tbl AND attribute.attname = columns.key AND NOT attribute.attisdropped
$$;

-- Only what an update changed, on both sides (server/audit/record-audit.ts changedValues).
CREATE FUNCTION gatehouse_audit_changes(before jsonb, after jsonb, OUT old_values jsonb, OUT new_values jsonb)
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT coalesce(jsonb_object_agg(key, before -> key), '{}'), coalesce(jsonb_object_agg(key, value), '{}')
  FROM jsonb_each(after)
  WHERE value IS DISTINCT FROM before -> key
$$;

REVOKE EXECUTE ON FUNCTION gatehouse_audit_instant(timestamptz), gatehouse_audit_float(jsonb), gatehouse_audit_value(jsonb, oid, text),
  gatehouse_audit_values(regclass, jsonb, text), gatehouse_audit_changes(jsonb, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION gatehouse_audit_instant(timestamptz), gatehouse_audit_float(jsonb), gatehouse_audit_value(jsonb, oid, text),
  gatehouse_audit_values(regclass, jsonb, text), gatehouse_audit_changes(jsonb, jsonb) TO gatehouse_app;
