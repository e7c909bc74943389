import { sql, type RawBuilder } from 'kysely';

/**
 * The organization of the transaction's tenant context (`gatehouse_organization_id()`,
 * sql/003_row_level_security.sql): how a statement names it when it is sent with the request's
 * opening (`transactions/read-ahead.ts`), before Node knows the id. Before a refused opening the
 * context holds none, and the statement reads nothing.
 */
export const CONTEXT_ORGANIZATION: RawBuilder<number> = sql<number>`gatehouse_organization_id()`;

/** An organization's id, or the tenant context's. */
export type OrganizationRef = number | RawBuilder<number>;
