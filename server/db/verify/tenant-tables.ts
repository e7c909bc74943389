import type pg from 'pg';

/** A tenant table as the verifier reads it from the catalog. */
export interface TenantTable {
  /** Qualified and quoted, ready for SQL: `public.posts`. */
  readonly name: string;
  /** Its plain name, for the report and the analytics view. */
  readonly label: string;
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
 * Every table of the public schema with an organization_id, but analyst_grants: access-control
 * data only the owner writes, not tenant rows.
 */
export async function readTenantTables(client: pg.ClientBase): Promise<TenantTable[]> {
  const { rows } = await client.query<{ name: string; label: string; enabled: boolean; forced: boolean; columns: string[]; keys: { name: string; type: string }[]; hidden: string[] }>(`
    SELECT format('public.%I', c.relname) AS name, c.relname::text AS label, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
      (SELECT array_agg(quote_ident(a.attname) ORDER BY a.attnum) FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns,
      coalesce((SELECT json_agg(json_build_object('name', quote_ident(a.attname), 'type', format_type(a.atttypid, a.atttypmod)))
        FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
        WHERE i.indrelid = c.oid AND i.indisprimary AND a.attname <> 'organization_id'), '[]') AS keys,
      coalesce((SELECT array_agg(h.column_name::text ORDER BY h.column_name) FROM gatehouse.analyst_hidden_columns h WHERE h.table_name = c.oid), '{}') AS hidden
    FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND c.relname <> 'analyst_grants'
      AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
    ORDER BY c.relname`);
  return rows.map((row) => ({
    name: row.name,
    label: row.label,
    rowSecurityEnabled: row.enabled,
    rowSecurityForced: row.forced,
    copyColumns: row.columns,
    keyColumns: row.keys,
    analystHidden: row.hidden,
  }));
}
