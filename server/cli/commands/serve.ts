import demo from '../../../policies/gatehouse.config.js';
import { runServer } from '../run-server.js';

/** Serves on an already migrated database (`gatehouse migrate` first). */
export function serveCommand(): Promise<void> {
  return runServer({ app: demo, announce: (url) => console.log(`Gatehouse listening on ${url}`) });
}
