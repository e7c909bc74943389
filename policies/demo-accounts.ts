// The demo application's accounts and content (DESIGN.md 6): plain data, so the seed, the CLI's
// banner and the demo web app's list of logins read the same facts.
export const DEMO_PASSWORD = 'password123!';

export const DEMO_ROLES = [
  { slug: 'owner', name: 'Owner', permissions: ['*'] },
  { slug: 'editor', name: 'Editor', permissions: ['posts.*', 'comments.*', 'users.index'] },
  { slug: 'viewer', name: 'Viewer', permissions: ['posts.index', 'posts.show', 'comments.index'] },
  { slug: 'admin', name: 'Administrator', permissions: [] },
  {
    slug: 'contributor',
    name: 'Contributor',
    // Record rules (PostPolicy.conditions): published posts and its own, changes only its own.
    permissions: ['posts.index:visible', 'posts.show:visible', 'posts.store', 'posts.update:own', 'posts.destroy:own', 'comments.index'],
  },
] as const;

type RoleSlug = (typeof DEMO_ROLES)[number]['slug'];

interface DemoMember {
  email: string;
  name: string;
  organization: string | null;
  routeGroup: string;
  role: RoleSlug;
  granted?: string[];
  denied?: string[];
  /** users.permissions: the source for non-tenant route groups. */
  permissions?: string[];
}

export const DEMO_USERS: readonly DemoMember[] = [
  { email: 'admin@example.test', name: 'Ada Admin', organization: null, routeGroup: 'admin', role: 'admin', permissions: ['*'] },
  { email: 'owner@acme.test', name: 'Olivia Owner', organization: 'acme', routeGroup: 'tenant', role: 'owner' },
  { email: 'editor@acme.test', name: 'Eddie Editor', organization: 'acme', routeGroup: 'tenant', role: 'editor', denied: ['posts.forceDelete'] },
  { email: 'viewer@acme.test', name: 'Vera Viewer', organization: 'acme', routeGroup: 'tenant', role: 'viewer', granted: ['comments.store'] },
  { email: 'owner@globex.test', name: 'Gus Owner', organization: 'globex', routeGroup: 'tenant', role: 'owner' },
  { email: 'contributor@acme.test', name: 'Cora Contributor', organization: 'acme', routeGroup: 'tenant', role: 'contributor' },
];

export const DEMO_ORGANIZATIONS = [
  {
    slug: 'acme',
    name: 'Acme Corporation',
    posts: [
      { title: 'Welcome to Acme', body: 'Our first post.', status: 'published', internal_notes: null, comments: ['Glad to be here.', 'Welcome!'] },
      { title: 'Quarterly roadmap', body: 'What we build next.', status: 'published', internal_notes: 'Do not share the Q3 dates yet.', comments: ['Exciting.'] },
      { title: 'Hiring plan', body: 'Two engineers this year.', status: 'draft', internal_notes: 'Budget approved by finance.', comments: [] },
      { title: 'Office move', body: 'We are moving in May.', status: 'published', internal_notes: null, comments: [] },
      { title: 'Security review', body: 'Findings and fixes.', status: 'draft', internal_notes: 'Pen-test report in the vault.', comments: ['Thanks for the write-up.'] },
    ],
  },
  {
    slug: 'globex',
    name: 'Globex Industries',
    posts: [
      { title: 'Globex launch', body: 'We are live.', status: 'published', internal_notes: 'Launch cost overrun.', comments: ['Congrats!'] },
      { title: 'Globex secrets', body: 'Only for Globex.', status: 'draft', internal_notes: 'Top secret.', comments: [] },
      { title: 'Globex picnic', body: 'Saturday at noon.', status: 'published', internal_notes: null, comments: [] },
    ],
  },
] as const;
