import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ANALYST_ROLE, APP_ROLE } from '../connection/database.js';
import { OwnClient } from '../connection/own-client.js';
import { readTenantTables, type TenantTable } from './tenant-tables.js';

export type CheckStatus = 'ok' | 'fail' | 'skip';

/** One check of one table: what `gatehouse db verify` prints as a line. */
export interface GateCheck {
  readonly table: string;
  readonly check: string;
  readonly status: CheckStatus;
  readonly detail: string;
}

// Row-level security refuses with insufficient_privilege; a child table's inheriting trigger
// refuses a parent it cannot see with foreign_key_violation. Any other error means the row got
// past row-level security (its WITH CHECK runs before constraints and unique indexes).
const REFUSALS = new Set(['42501', '23503']);

type Attempt = { code: string; message: string } | { rows: Record<string, unknown>[] };

// A copy keeps its row's values, with a key of its own, so a copy that lands anywhere (a child
// table's trigger moves it back to its parent's organization) is not mistaken for a refusal.
// Integer keys go negative, where identity columns never reach; no sequence is touched.
function freshKey(table: TenantTable, column: string): string {
  const key = table.keyColumns.find((candidate) => candidate.name === column);
  if (key === undefined) return column;
  if (['integer', 'bigint', 'smallint'].includes(key.type)) return `-1 - ${column}`;
  return key.type === 'uuid' ? 'gen_random_uuid()' : column;
}

const sqlError = (error: unknown) => (error instanceof pg.DatabaseError ? error : null);

/**
 * Proves the record gate on a migrated database, table by table, in one transaction that is
 * rolled back: nothing it does stays, and it takes no value from a sequence (row copies keep
 * their keys). Tenant tables need a row to test with; a table without one is skipped, said so.
 * The analyst checks act as an analyst made inside the transaction (see becomeAnalyst).
 */
export async function verifyRecordGate(ownerConnectionString: string): Promise<GateCheck[]> {
  const client = new OwnClient({ connectionString: ownerConnectionString });
  await client.connect();
  try {
    await client.query('BEGIN');
    return await new RecordGateVerifier(client).run();
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    await client.end();
  }
}

class RecordGateVerifier {
  private readonly checks: GateCheck[] = [];

  constructor(private readonly client: pg.Client) {}

  async run(): Promise<GateCheck[]> {
    const tables = await readTenantTables(this.client);
    const analyst = await this.becomeAnalyst();
    const organizations = await this.asApp(null, async () => (await this.client.query<{ id: number }>('SELECT id FROM organizations ORDER BY id')).rows.map((row) => row.id));
    for (const table of tables) await this.verifyTable(table, organizations, analyst);
    return this.checks;
  }

  private record(table: TenantTable, check: string, status: CheckStatus | boolean, detail: string): void {
    this.checks.push({ table: table.label, check, status: typeof status === 'boolean' ? (status ? 'ok' : 'fail') : status, detail });
  }

  /** Runs `work` in a savepoint as gatehouse_app with `organization` as the tenant context (null: none). */
  private async asApp<T>(organization: number | null, work: () => Promise<T>): Promise<T> {
    await this.client.query('SAVEPOINT verify');
    try {
      await this.client.query(`SET LOCAL ROLE ${APP_ROLE}`);
      await this.client.query("SELECT set_config('gatehouse.organization_id', $1, true), set_config('gatehouse.user_id', '', true)", [organization?.toString() ?? '']);
      return await work();
    } finally {
      await this.client.query('ROLLBACK TO SAVEPOINT verify');
    }
  }

  /** The error code `statement` fails with as gatehouse_app in `organization`'s context, or the rows it returns. */
  private attempt(organization: number, text: string, values: unknown[] = []): Promise<Attempt> {
    return this.asApp(organization, async () => {
      try {
        return { rows: (await this.client.query(text, values)).rows };
      } catch (error) {
        const failure = sqlError(error);
        if (!failure) throw error;
        return { code: failure.code ?? '', message: failure.message };
      }
    });
  }

  /** A table's checks; one whose statements fail (a privilege it lacks, say) is reported failed with the reason, never a crash of the whole run. */
  private async verifyTable(table: TenantTable, organizations: readonly number[], analyst: Analyst | null): Promise<void> {
    try {
      await this.verifyTableChecks(table, organizations, analyst);
    } catch (error) {
      const failure = sqlError(error);
      if (!failure) throw error;
      this.record(table, 'verify', 'fail', `could not be checked to the end: ${failure.message}`);
    }
  }

  private async verifyTableChecks(table: TenantTable, organizations: readonly number[], analyst: Analyst | null): Promise<void> {
    const rls = table.rowSecurityEnabled && table.rowSecurityForced;
    this.record(table, 'rls', rls, rls ? 'row-level security enabled and forced' : rowSecurityFix(table));

    const counts = new Map<number, number>();
    for (const id of organizations) {
      const own = `SELECT count(*) AS n FROM ${table.name} WHERE organization_id = $1`;
      counts.set(id, await this.asApp(id, async () => Number((await this.client.query<{ n: string }>(own, [id])).rows[0]?.n)));
    }
    const a = organizations.find((id) => (counts.get(id) ?? 0) > 0);
    const b = organizations.find((id) => id !== a && (counts.get(id) ?? 0) > 0) ?? organizations.find((id) => id !== a);
    if (a === undefined || b === undefined) {
      const why = a === undefined ? 'no organization has a row in it' : 'the database has one organization';
      for (const check of ['isolation', 'no context', 'insert into another', 'move into another', 'analyst']) this.record(table, check, 'skip', `not tested: ${why}`);
      return;
    }

    const { rows: seen } = await this.asApp(a, () =>
      this.client.query<{ own: string; other: string }>(`SELECT count(*) FILTER (WHERE organization_id = $1) AS own, count(*) FILTER (WHERE organization_id IS DISTINCT FROM $1) AS other FROM ${table.name}`, [a]),
    );
    const other = Number(seen[0]?.other);
    const othersHaveRows = (counts.get(b) ?? 0) > 0;
    if (other === 0 && !othersHaveRows) {
      this.record(table, 'isolation', 'skip', `not tested: organization ${a} sees its ${seen[0]?.own} row(s), and no other organization has a row to keep from it`);
    } else {
      this.record(table, 'isolation', other === 0, `organization ${a} sees ${other === 0 ? `its ${seen[0]?.own} row(s) only` : `${other} row(s) of other organizations`}; organization ${b} has ${counts.get(b)}`);
    }

    // Rows of no organization (a user's own audit entries) are not tenant rows.
    const tenantRows = `SELECT count(*) AS n FROM ${table.name} WHERE organization_id IS NOT NULL`;
    const none = await this.asApp(null, async () => Number((await this.client.query<{ n: string }>(tenantRows)).rows[0]?.n));
    this.record(table, 'no context', none === 0, none === 0 ? 'no tenant context sees no organization’s row' : `no tenant context sees ${none} organization row(s)`);

    const columns = table.copyColumns.join(', ');
    const copied = table.copyColumns.map((column) => (column === 'organization_id' ? '$1::integer' : freshKey(table, column))).join(', ');
    const copy = await this.attempt(
      a,
      `INSERT INTO ${table.name} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${copied} FROM ${table.name} WHERE organization_id = $2 LIMIT 1 RETURNING organization_id`,
      [b, a],
    );
    this.record(table, 'insert into another', ...refused(copy, b, `a copy of an organization ${a} row into organization ${b}`));
    const move = await this.attempt(a, `UPDATE ${table.name} SET organization_id = $1 WHERE ctid = (SELECT ctid FROM ${table.name} WHERE organization_id = $2 LIMIT 1) RETURNING organization_id`, [b, a]);
    this.record(table, 'move into another', ...refused(move, b, `moving an organization ${a} row into organization ${b}`));

    if (analyst === null) {
      this.record(table, 'analyst', 'skip', 'acting as an analyst needs a superuser, or an owner that may grant gatehouse_analyst (its creator, or CREATEROLE)');
      return;
    }
    await this.verifyAnalyst(table, analyst, a, counts.get(a) ?? 0, othersHaveRows);
  }

  /**
   * How this connection acts as an analyst, or null when it cannot. A superuser makes a login
   * role and takes it as its session user, exactly as an analyst authenticates. Any other owner
   * cannot change its session user, so it joins gatehouse_analyst (an owner that created the
   * role, or has CREATEROLE, may) and takes it as its current role: the analysts' privileges and
   * policies then apply to it, and the grants those policies read are made to its session user.
   * Either way the role or membership goes with the rollback.
   */
  private async becomeAnalyst(): Promise<Analyst | null> {
    const { rows } = await this.client.query<{ superuser: boolean }>('SELECT rolsuper AS superuser FROM pg_roles WHERE rolname = current_user');
    if (rows[0]?.superuser) {
      const role = `gatehouse_verify_${randomBytes(4).toString('hex')}`;
      await this.client.query(`CREATE ROLE ${role} LOGIN IN ROLE ${ANALYST_ROLE}`);
      return { grantee: role, become: `SET LOCAL SESSION AUTHORIZATION ${role}` };
    }
    await this.client.query('SAVEPOINT membership');
    try {
      await this.client.query(`GRANT ${ANALYST_ROLE} TO CURRENT_USER`);
    } catch (error) {
      if (!sqlError(error)) throw error;
      await this.client.query('ROLLBACK TO SAVEPOINT membership');
      return null;
    }
    const { rows: session } = await this.client.query<{ name: string }>('SELECT session_user::text AS name');
    return { grantee: session[0]!.name, become: `SET LOCAL ROLE ${ANALYST_ROLE}` };
  }

  /**
   * As an analyst login granted `organization` only: its rows (through the analytics view, or
   * the table itself where no view was made), no writes, no hidden column.
   */
  private async verifyAnalyst(table: TenantTable, analyst: Analyst, organization: number, rows: number, othersHaveRows: boolean): Promise<void> {
    await this.client.query('SAVEPOINT analyst');
    try {
      await this.client.query('DELETE FROM analyst_grants WHERE role_name = $1', [analyst.grantee]);
      await this.client.query('INSERT INTO analyst_grants (role_name, organization_id) VALUES ($1, $2)', [analyst.grantee, organization]);
      await this.client.query(analyst.become);
      const view = table.analystView ?? table.name;
      const read = await this.readsAsAnalyst(view, organization);
      if ('code' in read) {
        const refusedRead = read.code === '42501';
        this.record(table, 'analyst reads', refusedRead, refusedRead ? `an analyst cannot read ${view}` : `an analyst's read of ${view} fails: ${read.message}`);
      } else if (read.other === 0 && !othersHaveRows && read.own === rows) {
        this.record(table, 'analyst reads', 'skip', `not tested: an analyst granted organization ${organization} reads its ${rows} row(s), and no other organization has a row to keep from it`);
      } else {
        this.record(table, 'analyst reads', read.own === rows && read.other === 0, `an analyst granted organization ${organization} reads ${read.own} of its ${rows} row(s) and ${read.other} of others (through ${view})`);
      }
      const writes = await this.refusedStatements([
        `INSERT INTO ${table.name} (organization_id) SELECT organization_id FROM ${table.name} WHERE false`,
        `UPDATE ${table.name} SET organization_id = organization_id WHERE false`,
        `DELETE FROM ${table.name} WHERE false`,
        ...(table.analystView === null ? [] : [`DELETE FROM ${table.analystView} WHERE false`]),
      ]);
      this.record(table, 'analyst writes', writes.length === 0, writes.length === 0 ? 'an analyst cannot write' : `an analyst may run: ${writes.join('; ')}`);
      if (table.analystHidden.length > 0) {
        const reached = await this.refusedStatements(table.analystHidden.map((column) => `SELECT ${pg.escapeIdentifier(column)} FROM ${table.name} LIMIT 0`));
        const { fields } = table.analystView === null ? { fields: [] } : await this.client.query(`SELECT * FROM ${table.analystView} LIMIT 0`);
        const inView = fields.map((field) => field.name).filter((name) => table.analystHidden.includes(name));
        const hidden = reached.length === 0 && inView.length === 0;
        this.record(table, 'analyst hidden columns', hidden, hidden ? `an analyst cannot read ${table.analystHidden.join(', ')}` : `an analyst reads ${[...reached, ...inView].join('; ')}`);
      }
    } finally {
      await this.client.query('ROLLBACK TO SAVEPOINT analyst');
    }
  }

  /** How many rows of `organization` and of others the analyst reads from `relation`, or why the read failed. */
  private async readsAsAnalyst(relation: string, organization: number): Promise<{ own: number; other: number } | { code: string; message: string }> {
    await this.client.query('SAVEPOINT analyst_read');
    try {
      const { rows } = await this.client.query<{ own: string; other: string }>(
        `SELECT count(*) FILTER (WHERE organization_id = $1) AS own, count(*) FILTER (WHERE organization_id IS DISTINCT FROM $1) AS other FROM ${relation}`,
        [organization],
      );
      return { own: Number(rows[0]?.own), other: Number(rows[0]?.other) };
    } catch (error) {
      const failure = sqlError(error);
      if (!failure) throw error;
      await this.client.query('ROLLBACK TO SAVEPOINT analyst_read');
      return { code: failure.code ?? '', message: failure.message };
    }
  }

  /** The statements that run instead of failing with insufficient_privilege. */
  private async refusedStatements(statements: readonly string[]): Promise<string[]> {
    const ran: string[] = [];
    for (const statement of statements) {
      await this.client.query('SAVEPOINT statement');
      try {
        await this.client.query(statement);
        ran.push(statement);
      } catch (error) {
        if (sqlError(error)?.code !== '42501') ran.push(`${statement} (${sqlError(error)?.message ?? String(error)})`);
      } finally {
        await this.client.query('ROLLBACK TO SAVEPOINT statement');
      }
    }
    return ran;
  }
}

/** An analyst as the verifier acts: the role_name its grants name, and the statement that takes its privileges. */
interface Analyst {
  readonly grantee: string;
  readonly become: string;
}

/** Whether an attempt to put a row into organization `b` was refused, and how, as a check's status and detail. */
function refused(outcome: Attempt, b: number, what: string): [boolean, string] {
  if ('code' in outcome) {
    return REFUSALS.has(outcome.code) ? [true, `${what} is refused`] : [false, `${what} got past row-level security (${outcome.message})`];
  }
  const landed = outcome.rows.filter((row) => row.organization_id === b).length;
  return landed === 0 ? [true, `${what} does not land there`] : [false, `${what} succeeds`];
}

/** What a table without row-level security enabled and forced lacks, and the statements that give it. */
function rowSecurityFix(table: TenantTable): string {
  if (table.rowSecurityEnabled) return `row-level security enabled but not forced; fix: ALTER TABLE ${table.name} FORCE ROW LEVEL SECURITY`;
  return (
    `row-level security not enabled; fix: ALTER TABLE ${table.name} ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY; ` +
    `CREATE POLICY app_tenant ON ${table.name} FOR ALL TO gatehouse_app USING (organization_id = gatehouse_organization_id()) WITH CHECK (organization_id = gatehouse_organization_id())`
  );
}
