import type { TestProject } from 'vitest/node';
import { buildWebApp } from './web-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The demo web app's built assets, for the browser tests. */
    webRoot: string;
  }
}

/** The demo web app, built once for the browser project only. */
export default async function setup(project: TestProject) {
  const web = await buildWebApp();
  project.provide('webRoot', web.dir);
  return () => web.remove();
}
