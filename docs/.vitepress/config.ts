import { defineConfig, type DefaultTheme } from 'vitepress';

// One line per page: adding a page to the site is adding its link here.
const sidebar: DefaultTheme.SidebarItem[] = [
  {
    text: 'Getting started',
    items: [
      { text: 'Quick start', link: '/getting-started/quick-start' },
      { text: 'Your first model', link: '/getting-started/your-first-model' },
    ],
  },
  {
    text: 'Concepts',
    items: [
      { text: 'Permissions and the two gates', link: '/concepts/permissions-and-gates' },
      { text: 'Route groups and tenancy', link: '/concepts/route-groups-and-tenancy' },
      { text: 'Sessions and tokens', link: '/concepts/sessions-and-tokens' },
    ],
  },
  {
    text: 'Guides',
    items: [
      { text: 'Models and policies', link: '/guides/models-and-policies' },
      { text: 'Record rules', link: '/guides/record-rules' },
      { text: 'Queries and pagination', link: '/guides/queries-and-pagination' },
      { text: 'The web client', link: '/guides/web-client' },
      { text: 'React Native', link: '/guides/react-native' },
      { text: 'Other services', link: '/guides/other-services' },
      { text: 'Testing your policies', link: '/guides/testing-policies' },
      { text: 'Why was this refused?', link: '/guides/why-refused' },
      { text: 'Analyst access', link: '/guides/analyst-access' },
      { text: 'Administration', link: '/guides/administration' },
      { text: 'The admin console', link: '/guides/admin-console' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'Configuration and environment variables', link: '/reference/configuration' },
      { text: 'CLI', link: '/reference/cli' },
      { text: 'CLI: listing and removing', link: '/reference/cli-admin' },
      { text: 'HTTP API', link: '/reference/http-api' },
      { text: 'Permission strings and error messages', link: '/reference/permissions-and-errors' },
      { text: 'Limits', link: '/reference/limits' },
      { text: 'Packages and layout', link: '/reference/packages' },
    ],
  },
  {
    text: 'Operations',
    items: [
      { text: 'Deployment', link: '/operations/deployment' },
      { text: 'Deployment notes', link: '/operations/deployment-notes' },
      { text: 'Containers', link: '/operations/containers' },
      { text: 'PgBouncer and several instances', link: '/operations/pgbouncer' },
      { text: 'Metrics and tracing', link: '/operations/metrics-and-tracing' },
      { text: 'Backups and upgrades', link: '/operations/backups-and-upgrades' },
      { text: 'Read replicas', link: '/operations/replicas' },
      { text: 'Scaling out', link: '/operations/scaling-out' },
    ],
  },
  {
    text: 'Architecture',
    items: [
      { text: 'Layers and a request’s path', link: '/architecture/layers' },
      { text: 'Row-level security: threat model and residual risks', link: '/architecture/row-level-security' },
      { text: 'A request’s round trips', link: '/architecture/request-round-trips' },
      { text: 'Records whose JSON PostgreSQL writes', link: '/architecture/record-json' },
      { text: 'Administration rules', link: '/architecture/administration-rules' },
      { text: 'Decisions', link: '/architecture/decisions' },
    ],
  },
  { text: 'Benchmarks', link: '/benchmarks' },
  {
    text: 'Contributing',
    items: [
      { text: 'Testing Gatehouse', link: '/contributing/testing' },
      { text: 'Publishing', link: '/contributing/publishing' },
    ],
  },
];

export default defineConfig({
  title: 'Gatehouse',
  description: 'A multi-tenant model service: a CASL ability engine, PostgreSQL row-level security, a Koa server and React hooks.',
  // A link to a page that does not exist fails the build; only links to a locally running service
  // (http://localhost:3000/api/docs) are not checked, since the build runs none.
  ignoreDeadLinks: 'localhostLinks',
  cleanUrls: true,
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/getting-started/quick-start' },
      { text: 'Reference', link: '/reference/configuration' },
    ],
    sidebar,
    search: { provider: 'local' },
    outline: [2, 3],
  },
});
