import type { JsonSchema } from '../routes/route-definition.js';
import type { Operation } from './route-operation.js';

type Paths = Record<string, Record<string, Operation | JsonSchema[]>>;

/** A domain group's paths answer only on its own host. */
function hostServers(host: string): JsonSchema[] {
  const variables = host.includes('{organization}') ? { organization: { default: 'acme', description: 'The organization slug.' } } : undefined;
  return [{ url: `https://${host}`, description: 'The group’s own host', ...(variables ? { variables } : {}) }];
}

/** The document's `paths`, filled in the route table's order. */
export class PathCollector {
  readonly paths: Paths = {};

  /**
   * The first description of a method and path wins, as the first route that matches answers: a
   * tenant-only operation before the data route of the same path, a domain group's `/auth/*`
   * before a later group's same shape.
   */
  add(path: string, method: string, operation: Operation, host: string | null): void {
    const item = (this.paths[path] ??= host ? { servers: hostServers(host) } : {});
    item[method] ??= operation;
  }
}
