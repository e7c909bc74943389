import { bodyOf } from '../http/response-body.js';
import { useTenantScope } from './use-data-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

/** A resource and the actions a permission can name on it. */
export interface PermissionCatalogEntry {
  resource: string;
  /** `service`: a resource another service registered (`invoices` of `billing`). */
  kind: 'model' | 'administration' | 'service';
  actions: string[];
  /** The service a `service` resource belongs to. */
  service?: string;
  /** A model's record conditions, each a permission `{resource}.{action}:{condition}` may name. */
  conditions?: string[];
}

/** Every permission a role or member can be given in the selected organization's group. */
export function usePermissionCatalog() {
  return useScopedQuery(useTenantScope(), 'permission-catalog', [], async (http, base) =>
    (await bodyOf(http.get<{ data: PermissionCatalogEntry[] }>(`${base}/permission-catalog`))).data,
  );
}
