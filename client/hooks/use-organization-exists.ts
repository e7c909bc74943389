import { bodyOf } from '../http/response-body.js';
import { useDebouncedValue } from './use-debounced-value.js';
import type { Organization } from './use-owner.js';
import { useTenantScope } from './use-data-scope.js';
import { useOrganization } from './use-session-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

/** Long enough to skip the keystrokes of a word typed at once, short enough to feel immediate. */
export const SLUG_CHECK_DELAY_MS = 300;

export interface OrganizationExistence {
  /** True when the slug is taken. */
  exists: boolean;
  /** True from the first keystroke until the server has answered for the latest slug. */
  isLoading: boolean;
  /** Only for members of that organization. */
  organization: Organization | null;
}

/**
 * Whether an organization slug is taken, checked once typing pauses; without a slug, the selected
 * organization's. Asks nothing for an empty slug.
 */
export function useOrganizationExists(slug?: string | null): OrganizationExistence {
  const selected = useOrganization();
  const wanted = (slug === undefined ? selected : slug?.trim()) || null;
  const checked = useDebouncedValue(wanted, SLUG_CHECK_DELAY_MS);
  const scope = useTenantScope(checked);
  const query = useScopedQuery(scope, 'organizations', ['exists'], (http, base) =>
    bodyOf(http.get<{ exists: boolean; organization?: Organization | null }>(`${base}/organizations/exists`)),
  );
  const current = wanted !== null && wanted === checked;
  return {
    exists: current && (query.data?.exists ?? false),
    isLoading: wanted !== null && (!current || query.isPending),
    organization: (current && query.data?.organization) || null,
  };
}
