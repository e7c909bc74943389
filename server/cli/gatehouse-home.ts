import { join } from 'node:path';

/** The project's own folder: embedded data, its password, the generated development key. */
export function gatehouseHome(env: { GATEHOUSE_HOME?: string | undefined }): string {
  return env.GATEHOUSE_HOME || join(process.cwd(), '.gatehouse');
}
