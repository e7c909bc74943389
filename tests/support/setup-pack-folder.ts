import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { scratchFolder } from '../../harness/packed-packages.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the packing tests share the run's one set of tarballs (see sharedTarballs). */
    packFolder: string;
  }
}

/** A folder the packing tests share the run's one `npm pack` in. */
export default async function setup(project: TestProject) {
  const packFolder = await scratchFolder('pack');
  project.provide('packFolder', packFolder);
  return () => rm(packFolder, { recursive: true, force: true });
}
