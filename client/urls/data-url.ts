import type { Tenancy } from '../config/api-config.js';
import { joinPath } from './path.js';

/** What decides where data and tenant requests go. */
export interface UrlScope {
  tenancy: Tenancy;
  /** The active route group, if any. */
  routeGroup: string | null;
  routeGroupInDataPath: boolean;
  organization: string | null;
}

const groupSegment = (scope: UrlScope) => (scope.routeGroupInDataPath ? scope.routeGroup : null);

/**
 * Prefix of model endpoints; null when path tenancy has no organization to put in it. Only the
 * two named alternatives leave the organization out: any other value is the default, path.
 */
export function dataBase(scope: UrlScope): string | null {
  if (scope.tenancy === 'subdomain' || scope.tenancy === 'none') return joinPath(groupSegment(scope));
  return scope.organization ? joinPath(groupSegment(scope), scope.organization) : null;
}

/** Prefix of organization, role and invitation endpoints: always carries the organization. */
export function tenantBase(scope: UrlScope): string | null {
  return scope.organization ? joinPath(groupSegment(scope), scope.organization) : null;
}

export type ModelOperation = 'computed' | 'trashed' | 'restore' | 'force-delete' | 'audit';

/** `/{model}`, `/{model}/{id}`, `/{model}/{operation}` or `/{model}/{id}/{operation}` under a data base. */
export function modelUrl(base: string, model: string, id?: string | number | null, operation?: ModelOperation): string {
  return `${base}${joinPath(model, id, operation)}`;
}

/** Nested operations go to `/{model}/nested`, or to `/nested` when they span models. */
export function nestedUrl(base: string, model?: string): string {
  return `${base}${joinPath(model, 'nested')}`;
}
