import { sql } from 'kysely';
import type { Executor } from './executor.js';

/** What the catalog says about one table: each tenant-table safeguard, present or not. */
export interface TableSafeguards {
  table: string;
  exists: boolean;
  organizationId: boolean;
  rowSecurityEnabled: boolean;
  rowSecurityForced: boolean;
  servicePolicyUsing: boolean;
  servicePolicyWithCheck: boolean;
  analystPolicy: boolean;
  organizationIndex: boolean;
  serviceGrants: boolean;
  analystGrant: boolean;
}

interface Row {
  table: string;
  exists: boolean;
  organization_id: boolean;
  rls_enabled: boolean;
  rls_forced: boolean;
  app_using: boolean;
  app_with_check: boolean;
  analyst_policy: boolean;
  organization_index: boolean;
  app_grants: boolean;
  analyst_grant: boolean;
}

/** Reads the safeguards of the named tables (plain identifiers) in one round trip. */
export async function readTableSafeguards(db: Executor, tables: readonly string[]): Promise<TableSafeguards[]> {
  const { rows } = await sql<Row>`
    SELECT t.name AS table, c.oid IS NOT NULL AS exists,
      coalesce(EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped), false) AS organization_id,
      coalesce(c.relrowsecurity, false) AS rls_enabled,
      coalesce(c.relforcerowsecurity, false) AS rls_forced,
      EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid AND 'gatehouse_app'::regrole = ANY (p.polroles) AND p.polqual IS NOT NULL) AS app_using,
      EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid AND 'gatehouse_app'::regrole = ANY (p.polroles) AND p.polwithcheck IS NOT NULL) AS app_with_check,
      EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid AND 'gatehouse_analyst'::regrole = ANY (p.polroles) AND p.polcmd = 'r') AS analyst_policy,
      EXISTS (SELECT FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
        WHERE i.indrelid = c.oid AND a.attname = 'organization_id') AS organization_index,
      coalesce(has_table_privilege('gatehouse_app', c.oid, 'SELECT') AND has_table_privilege('gatehouse_app', c.oid, 'INSERT')
        AND has_table_privilege('gatehouse_app', c.oid, 'UPDATE') AND has_table_privilege('gatehouse_app', c.oid, 'DELETE'), false) AS app_grants,
      coalesce(has_any_column_privilege('gatehouse_analyst', c.oid, 'SELECT'), false) AS analyst_grant
    FROM unnest(${[...tables]}::text[]) AS t(name)
    LEFT JOIN pg_class c ON c.oid = to_regclass(quote_ident(t.name)) AND c.relkind IN ('r', 'p')`.execute(db);
  return rows.map((row) => ({
    table: row.table,
    exists: row.exists,
    organizationId: row.organization_id,
    rowSecurityEnabled: row.rls_enabled,
    rowSecurityForced: row.rls_forced,
    servicePolicyUsing: row.app_using,
    servicePolicyWithCheck: row.app_with_check,
    analystPolicy: row.analyst_policy,
    organizationIndex: row.organization_index,
    serviceGrants: row.app_grants,
    analystGrant: row.analyst_grant,
  }));
}
