import { useAbility, useUserRole, type GatehouseAbility } from '@gatehouse/client';

export interface Author {
  id: number;
  name: string;
}

export interface Comment {
  id: number;
  body: string;
  author_id: number;
  author?: Author | null;
  created_at: string;
}

/** A post as the server shows it to the caller: `internal_notes` is absent for those who may not see it. */
export interface Post {
  id: number;
  title: string;
  body: string | null;
  status: string;
  internal_notes?: string | null;
  author_id: number;
  author?: Author | null;
  comments?: Comment[];
  created_at: string;
  updated_at: string;
  deleted_at?: string | null;
}

export const POST_STATUSES = ['draft', 'published'] as const;

/**
 * The caller's ability, and whether it has loaded: queries wait for it, because relations are
 * included only where the caller may list the related model (`users.index` for authors).
 */
export function usePermissions(): { ability: GatehouseAbility; ready: boolean; error: unknown } {
  const role = useUserRole();
  return { ability: useAbility(), ready: !role.isPending, error: role.error };
}

export const formatDate = (value: string | null | undefined) =>
  value ? new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
