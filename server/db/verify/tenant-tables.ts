import type pg from 'pg';

/** A tenant table as the verifier reads it from the catalog. */
export interface TenantTable {
  /** Qualified and quoted, ready for SQL: `public.posts`. */
  readonly name: string;
  /** How the report names it: its plain name in the public schema, else qualified (`analytics.ledger`). */
  readonly label: string;
  /** The analytics view over it (`analytics.posts`, qualified and quoted); null where none was made. */
  readonly analystView: string | null;
  readonly rowSecurityEnabled: boolean;
  readonly rowSecurityForced: boolean;
  /** Quoted names of the columns a row copy must list (generated ones are computed). */
  readonly copyColumns: readonly string[];
  /** Quoted names of the primary key's columns but organization_id, with their types. */
  readonly keyColumns: readonly { readonly name: string; readonly type: string }[];
  /** Columns declared hidden from analysts (gatehouse.analyst_hidden_columns). */
  readonly analystHidden: readonly string[];
}

/**
 * Every table with an organization_id in every schema but PostgreSQL's own, public.analyst_grants
 * (access-control data only the owner writes, not tenant rows) and gatehouse.*, the migrations' own
 * bookkeeping. A tenant table made outside the public schema is the mistake that matters most,
 * since nothing Gatehouse makes puts one there.
 */
export async function readTenantTables(client: pg.ClientBase): Promise<TenantTable[]> {
  const { rows } = await client.query<{ name: string; label: string; view: string | null; enabled: boolean; forced: boolean; columns: string[]; keys: { name: string; type: string }[]; hidden: string[] }>(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name,
      CASE WHEN n.nspname = 'public' THEN c.relname::text ELSE format('%s.%s', n.nspname, c.relname) END AS label,
      (SELECT format('%I.%I', vn.nspname, v.relname) FROM pg_class v JOIN pg_namespace vn ON vn.oid = v.relnamespace
        WHERE n.nspname = 'public' AND vn.nspname = 'analytics' AND v.relname = c.relname AND v.relkind = 'v') AS view,
      c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
      (SELECT array_agg(quote_ident(a.attname) ORDER BY a.attnum) FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns,
      coalesce((SELECT json_agg(json_build_object('name', quote_ident(a.attname), 'type', format_type(a.atttypid, a.atttypmod)))
        FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
        WHERE i.indrelid = c.oid AND i.indisprimary AND a.attname <> 'organization_id'), '[]') AS keys,
      coalesce((SELECT array_agg(h.column_name::text ORDER BY h.column_name) FROM gatehouse.analyst_hidden_columns h WHERE h.table_name = c.oid), '{}') AS hidden
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p')
      AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'gatehouse') AND n.nspname NOT LIKE 'pg\\_%'
      AND NOT (n.nspname = 'public' AND c.relname = 'analyst_grants')
      AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
    ORDER BY 2`);
  return rows.map((row) => ({
    name: row.name,
    label: row.label,
    analystView: row.view,
    rowSecurityEnabled: row.enabled,
    rowSecurityForced: row.forced,
    copyColumns: row.columns,
    keyColumns: row.keys,
    analystHidden: row.hidden,
  }));
}
