import { Can, useAuth, useRouteGroup } from '@gatehouse/client';
import type { ReactNode } from 'react';
import { ADMIN_GROUP } from '../groups.js';
import { ADMIN_SECTIONS, navigate, useRoute, type AdminSection, type Route } from '../routes.js';
import { OrganizationSwitcher } from './organization-switcher.js';

interface User {
  name: string;
  email: string;
}

function NavLink({ to, active, children }: { to: string; active: boolean; children: ReactNode }) {
  return (
    <a href={`#${to}`} className={active ? 'nav-link active' : 'nav-link'} aria-current={active ? 'page' : undefined}>
      {children}
    </a>
  );
}

const isPostPage = (route: Route) => ['posts', 'post', 'new-post', 'edit-post'].includes(route.page);

export function Layout({ children }: { children: ReactNode }) {
  const { user, logout } = useAuth<User>();
  const group = useRouteGroup();
  const route = useRoute();

  const signOut = async () => {
    await logout();
    navigate('/');
  };

  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="#/">
          <span className="brand-mark">G</span> Gatehouse
        </a>
        <nav className="nav">
          {group === ADMIN_GROUP ? (
            <NavLink to="/users" active={route.page === 'users'}>
              Users
            </NavLink>
          ) : (
            <>
              <NavLink to="/posts" active={isPostPage(route)}>
                Posts
              </NavLink>
              <Can I="trashed" a="posts">
                <NavLink to="/trash" active={route.page === 'trash'}>
                  Trash
                </NavLink>
              </Can>
              <NavLink to="/permissions" active={route.page === 'permissions'}>
                My permissions
              </NavLink>
              {(Object.keys(ADMIN_SECTIONS) as AdminSection[]).map((section) => (
                <Can key={section} I={ADMIN_SECTIONS[section].action} a={ADMIN_SECTIONS[section].subject}>
                  <NavLink to={`/admin/${section}`} active={route.page === 'admin' && route.section === section}>
                    {ADMIN_SECTIONS[section].title}
                  </NavLink>
                </Can>
              ))}
            </>
          )}
        </nav>
        <div className="topbar-end">
          {group === ADMIN_GROUP ? <span className="badge badge-admin">admin group</span> : <OrganizationSwitcher />}
          <span className="user" data-testid="signed-in-user">
            {user?.name ?? 'Signed in'} <span className="muted">{user?.email}</span>
          </span>
          <button type="button" className="button button-ghost" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main className="content">{children}</main>
    </div>
  );
}
