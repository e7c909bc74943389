import { useSyncExternalStore } from 'react';

/** The app's pages, addressed by the URL's hash so the server needs to know none of them. */
export type Route =
  | { page: 'posts' }
  | { page: 'post'; id: string }
  | { page: 'new-post' }
  | { page: 'edit-post'; id: string }
  | { page: 'trash' }
  | { page: 'permissions' }
  | { page: 'users' }
  | { page: 'admin'; section: AdminSection };

/** The console's pages, each behind the permission its first request needs. */
export const ADMIN_SECTIONS = {
  members: { title: 'Members', action: 'index', subject: 'memberships' },
  roles: { title: 'Roles', action: 'show', subject: 'roles' },
  invitations: { title: 'Invitations', action: 'index', subject: 'invitations' },
  audit: { title: 'Audit', action: 'index', subject: 'audit' },
  decisions: { title: 'Decisions', action: 'index', subject: 'decisions' },
} as const;

export type AdminSection = keyof typeof ADMIN_SECTIONS;

const isAdminSection = (name: string | undefined): name is AdminSection => name !== undefined && Object.hasOwn(ADMIN_SECTIONS, name);

export function parseRoute(hash: string): Route {
  const [first, second, third] = hash.replace(/^#\/?/, '').split('/');
  if (first === 'posts' && second === 'new') return { page: 'new-post' };
  if (first === 'posts' && second && third === 'edit') return { page: 'edit-post', id: second };
  if (first === 'posts' && second) return { page: 'post', id: second };
  if (first === 'admin' && isAdminSection(second)) return { page: 'admin', section: second };
  if (first === 'trash' || first === 'permissions' || first === 'users') return { page: first };
  return { page: 'posts' };
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

export function useHash(): string {
  return useSyncExternalStore(subscribe, () => window.location.hash);
}

export function useRoute(): Route {
  return parseRoute(useHash());
}

export function navigate(path: string): void {
  window.location.hash = path;
}
