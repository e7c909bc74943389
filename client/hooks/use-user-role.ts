import { bodyOf } from '../http/response-body.js';
import type { PackedRules } from '../ability/gatehouse-ability.js';
import { useTenantScope } from './use-data-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

export interface UserRole {
  role: string | null;
  /** Effective permission strings, e.g. `posts.index`, `posts.*`, `*`. */
  permissions: string[];
  /** The caller's CASL rules, packed by the server with `packRules`. */
  rules: PackedRules;
}

/** The caller's role and permissions in the selected organization. */
export function useUserRole() {
  return useScopedQuery(useTenantScope(), 'user-role', [], (http, base) => bodyOf(http.get<UserRole>(`${base}/user-role`)));
}
