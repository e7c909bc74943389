import type { AxiosInstance } from 'axios';
import { useClientScope } from '../react/gatehouse-context.js';
import { dataBase, tenantBase } from '../urls/data-url.js';
import { useUrlScope } from './use-session-scope.js';

export interface RequestScope {
  http: AxiosInstance;
  /** URL prefix of the requests; null when an organization is needed and none is selected. */
  base: string | null;
}

export function useDataScope(): RequestScope {
  return { http: useClientScope().runtime.http, base: dataBase(useUrlScope()) };
}

/** Tenant-only endpoints; `organization` replaces the selected one (an undefined value keeps it). */
export function useTenantScope(organization?: string | null): RequestScope & { organization: string | null } {
  const scope = useUrlScope();
  const target = organization === undefined ? scope.organization : organization;
  return {
    http: useClientScope().runtime.http,
    base: tenantBase({ ...scope, organization: target }),
    organization: target,
  };
}
