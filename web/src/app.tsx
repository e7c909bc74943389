import { AuthProvider, useAuth, useOrganization, useRouteGroup } from '@gatehouse/client';
import { AdminPage } from './admin/admin-page.js';
import { Layout } from './components/layout.js';
import { ADMIN_GROUP } from './groups.js';
import { Empty } from './components/status.js';
import { PermissionsPage } from './pages/permissions-page.js';
import { PostFormPage } from './pages/post-form-page.js';
import { PostPage } from './pages/post-page.js';
import { PostsPage } from './pages/posts-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { TrashPage } from './pages/trash-page.js';
import { UsersPage } from './pages/users-page.js';
import { useRoute } from './routes.js';

function OrganizationPages() {
  const route = useRoute();
  if (useOrganization() === null) return <Empty>Pick an organization you belong to (type its slug at the top).</Empty>;
  switch (route.page) {
    case 'post':
      return <PostPage id={route.id} />;
    case 'new-post':
      return <PostFormPage />;
    case 'edit-post':
      return <PostFormPage id={route.id} />;
    case 'trash':
      return <TrashPage />;
    case 'permissions':
      return <PermissionsPage />;
    case 'admin':
      return <AdminPage section={route.section} />;
    default:
      return <PostsPage />;
  }
}

function Session() {
  const { isAuthenticated } = useAuth();
  const group = useRouteGroup();
  if (!isAuthenticated) return <SignInPage />;
  // The admin group has no tenancy: its data lives at `/api/admin/{model}`.
  if (group === ADMIN_GROUP) {
    return (
      <AuthProvider tenancy="none">
        <Layout>
          <UsersPage />
        </Layout>
      </AuthProvider>
    );
  }
  return (
    <Layout>
      <OrganizationPages />
    </Layout>
  );
}

export function App() {
  return (
    <AuthProvider>
      <Session />
    </AuthProvider>
  );
}
