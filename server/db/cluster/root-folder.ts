import { lstat } from 'node:fs/promises';

/** A folder root would hand the embedded cluster's user that root did not make, or that others could change. */
export class UntrustedFolderError extends Error {
  constructor(folder: string, holding: string) {
    super(`${folder} should hold the embedded PostgreSQL's ${holding}, but root does not own it or others can change it: remove it, or set DATABASE_URL.`);
    this.name = 'UntrustedFolderError';
  }
}

/**
 * Whether `folder` exists as one that `owner` (root) made and only it can change; it throws for
 * one that exists otherwise (another user's, a link, writable by others), which must never be used.
 */
export async function ownFolder(folder: string, holding: string, owner = 0): Promise<boolean> {
  const info = await lstat(folder).catch(() => null);
  if (info === null) return false;
  if (!info.isDirectory() || info.uid !== owner || (info.mode & 0o022) !== 0) throw new UntrustedFolderError(folder, holding);
  return true;
}
