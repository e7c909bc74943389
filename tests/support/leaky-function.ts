export type RunSql = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * The post titles a side-effecting function in a WHERE clause gets to see. It is as cheap as a
 * function can be, so the planner would run it first if row-level security let it: whatever it
 * sees, it could leak (here into a temporary table). Run inside a transaction that is rolled back.
 */
export async function titlesSeenByLeakyFunction(run: RunSql): Promise<string[]> {
  await run('CREATE TEMPORARY TABLE seen (title text)');
  await run(`CREATE FUNCTION pg_temp.peek(title text) RETURNS boolean LANGUAGE plpgsql COST 0.0000001 AS
    $$ BEGIN INSERT INTO pg_temp.seen VALUES (title); RETURN true; END $$`);
  await run('SELECT id FROM posts WHERE pg_temp.peek(title)');
  return (await run('SELECT title FROM pg_temp.seen ORDER BY title')).map((row) => String(row.title));
}
