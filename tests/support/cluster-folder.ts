import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh temporary folder for an embedded cluster's data (`gatehouse-{name}-…`). As root the
 * cluster runs as the `postgres` user, who must reach the data folder: it is opened to others.
 */
export async function clusterFolder(name: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), `gatehouse-${name}-`));
  await chmod(folder, 0o755);
  return folder;
}
