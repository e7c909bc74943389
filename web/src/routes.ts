import { useSyncExternalStore } from 'react';

/** The app's pages, addressed by the URL's hash so the server needs to know none of them. */
export type Route =
  | { page: 'posts' }
  | { page: 'post'; id: string }
  | { page: 'new-post' }
  | { page: 'edit-post'; id: string }
  | { page: 'trash' }
  | { page: 'permissions' }
  | { page: 'users' };

export function parseRoute(hash: string): Route {
  const [first, second, third] = hash.replace(/^#\/?/, '').split('/');
  if (first === 'posts' && second === 'new') return { page: 'new-post' };
  if (first === 'posts' && second && third === 'edit') return { page: 'edit-post', id: second };
  if (first === 'posts' && second) return { page: 'post', id: second };
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
