import { bodyOf } from '../http/response-body.js';
import type { ModelAbilities, PackedRules } from '../ability/gatehouse-ability.js';
import { useTenantScope } from './use-data-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

export interface UserRole {
  role: string | null;
  /** Effective permission strings, e.g. `posts.index`, `posts.*`, `*`. */
  permissions: string[];
  /** The caller's CASL rules, packed by the server with `packRules`. */
  rules: PackedRules;
  /** Per model, index/store/trashed as the server's policies decide them. */
  abilities: ModelAbilities;
  /** The organization these hold in; null in a group without tenancy. */
  organization: { id: number; slug: string } | null;
}

/** The caller's role and permissions in the selected organization. */
export function useUserRole() {
  return useScopedQuery(useTenantScope(), 'user-role', [], (http, base) => bodyOf(http.get<UserRole>(`${base}/user-role`)));
}
