import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertEmbeddedClusterCanRun, EmbeddedClusterAccessError } from '../../../../server/db/cluster/embedded-cluster-access.js';

// As root, the embedded cluster runs as the `postgres` user. The check is given uid 0 here so
// that it runs whoever runs the tests.
let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'gatehouse-access-'));
  await mkdir(join(base, 'closed', 'project', '.gatehouse'), { recursive: true });
  await mkdir(join(base, 'open', 'project', '.gatehouse'), { recursive: true });
  await chmod(base, 0o755);
  await chmod(join(base, 'closed'), 0o700);
  await chmod(join(base, 'open'), 0o755);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the embedded cluster as root', () => {
  it('names the root-only folder on the way to the data, and the ways out', async () => {
    const check = assertEmbeddedClusterCanRun(join(base, 'closed', 'project', '.gatehouse', 'pg'), 0);
    await expect(check).rejects.toThrow(EmbeddedClusterAccessError);
    await expect(check).rejects.toThrow(
      `The embedded PostgreSQL runs as the "postgres" user, who cannot enter ${join(base, 'closed')}: run Gatehouse as a normal user, ` +
        `put the project in a folder other users can enter (or \`chmod o+x ${join(base, 'closed')}\`), or set DATABASE_URL to a PostgreSQL of your own.`,
    );
  });

  it('lets it run where the postgres user can reach the data', async () => {
    await expect(assertEmbeddedClusterCanRun(join(base, 'open', 'project', '.gatehouse', 'pg'), 0)).resolves.toBeUndefined();
  });

  it('checks nothing for other users, who run the cluster themselves', async () => {
    await expect(assertEmbeddedClusterCanRun(join(base, 'closed', 'project', '.gatehouse', 'pg'), 1000)).resolves.toBeUndefined();
  });
});
