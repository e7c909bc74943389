import { lstat } from 'node:fs/promises';

/** A folder root would hand the embedded cluster's user that root did not make, or that others could change. */
export class UntrustedFolderError extends Error {
  constructor(folder: string, holding: string) {
    super(`${folder} should hold the embedded PostgreSQL's ${holding}, but root does not own it or others can change it: remove it, or set DATABASE_URL.`);
    this.name = 'UntrustedFolderError';
  }
}

/**
 * Whether `folder` exists as one that root made and only root can change; it throws for one that
 * exists otherwise (another user's, a link, writable by others), which root must never use.
 */
export async function rootsOwnFolder(folder: string, holding: string): Promise<boolean> {
  const info = await lstat(folder).catch(() => null);
  if (info === null) return false;
  if (!info.isDirectory() || info.uid !== 0 || (info.mode & 0o022) !== 0) throw new UntrustedFolderError(folder, holding);
  return true;
}
