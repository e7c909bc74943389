import { createHash } from 'node:crypto';
import { chmod, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { firstClosedFolder } from '../db/cluster/embedded-cluster-access.js';
import { ownFolder } from '../db/cluster/root-folder.js';

/** Where root keeps the data of embedded clusters whose projects the `postgres` user cannot enter. */
export const ROOT_CLUSTERS_FOLDER = '/var/lib/gatehouse';

/**
 * The folder of the project's embedded cluster: `pg` in its home, unless the cluster's `postgres`
 * user (as which root runs it) cannot enter a folder on the way there, as in a container's /root.
 * Then it is the project's own folder under /var/lib/gatehouse, named after the home's path, so the
 * project keeps its one cluster across restarts and other projects keep theirs; `owner` (root)
 * must own the folders there, and no one else may change them.
 */
export async function clusterDataDir(home: string, uid = process.getuid?.(), clusters = ROOT_CLUSTERS_FOLDER, owner = 0): Promise<string> {
  const inHome = join(home, 'pg');
  if (uid !== 0 || (await firstClosedFolder(home)) === null) return inHome;
  const project = join(clusters, createHash('sha256').update(resolve(home)).digest('hex').slice(0, 16));
  await mkdir(project, { recursive: true, mode: 0o755 });
  for (const folder of [clusters, project]) {
    await ownFolder(folder, 'data', owner);
    // mkdir's mode passes through the umask: the cluster's user must enter.
    await chmod(folder, 0o755);
  }
  return join(project, 'pg');
}
