import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../server/db/migrations/migrations.js';
import { createEmptyDatabase, type TestDatabase } from './database.js';

/** An application's own tables made tenant tables by the one-liners docs/architecture/row-level-security.md documents. */
export const APP_MIGRATION = `
CREATE TABLE projects (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations ON DELETE CASCADE,
  name text NOT NULL,
  UNIQUE (organization_id, id)
);
SELECT gatehouse.enable_tenant_table('projects');

CREATE TABLE tasks (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL,
  project_id integer NOT NULL,
  title text NOT NULL,
  FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE
);
SELECT gatehouse.enable_child_table('tasks', 'projects', 'project_id');
`;

/** A database with the core and one application migration (no demo), for tests of app tables. */
export async function createAppDatabase(migration = APP_MIGRATION): Promise<TestDatabase> {
  const database = await createEmptyDatabase();
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-app-'));
  try {
    await writeFile(join(dir, '001_app.sql'), migration);
    await migrate(database.ownerUrl, { dir });
    return database;
  } catch (error) {
    await database.drop();
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
