import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strictTsconfig } from './packed-packages.js';

// Small projects that use each package the way its README (engine/README.md, server/README.md,
// client/README.md) says; the packing tests check that they install, build and type-check, and
// `npm run bench -- types` times their type-checks.

async function writeFiles(folder: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(folder, path, '..'), { recursive: true });
    await writeFile(join(folder, path), text);
  }
}

/** A Node script and a TypeScript module using the engine on its own. */
export function writeEngineConsumer(folder: string): Promise<void> {
  return writeFiles(folder, {
    'tsconfig.json': strictTsconfig(),
    'check.mjs': `
import { compileAbility, effectivePermissions, packAbilityRules, ResourcePolicy } from '@gatehouse/engine';

class PostPolicy extends ResourcePolicy {
  static model = 'Post';
  update(user, post) {
    return super.update(user, post) && post.author_id === user?.id;
  }
}

const permissions = effectivePermissions({ role: ['posts.*', 'comments.index'], denied: ['posts.forceDelete'] });
const ability = compileAbility(permissions);
const user = { id: 7 };
const policy = new PostPolicy({ user, ability, role: 'editor', organization: { id: 1, slug: 'acme' }, routeGroup: null });
console.log(JSON.stringify({
  permissions,
  checks: [ability.can('update', 'posts'), ability.can('forceDelete', 'posts'), ability.can('store', 'comments')],
  policy: [policy.update(user, { author_id: 7 }), policy.update(user, { author_id: 8 }), policy.forceDelete(user, { author_id: 7 })],
  packed: packAbilityRules(ability),
}));
`,
    'src/check.ts': `
import { compileAbility, ResourcePolicy, WILDCARD, type GatehouseAbility, type PolicyUser } from '@gatehouse/engine';
import { STANDARD_ACTIONS } from '@gatehouse/engine/wire';

class CommentPolicy extends ResourcePolicy<{ author_id: number }> {
  static override model = 'Comment';
  override delete(user: PolicyUser | null, comment: { author_id: number }): boolean {
    return super.delete(user, comment) && comment.author_id === user?.id;
  }
}

const ability: GatehouseAbility = compileAbility(['comments.*', \`posts.\${WILDCARD}\`]);
export const allowed: boolean = new CommentPolicy({ user: null, ability, role: null, organization: null, routeGroup: null }).delete(null, { author_id: 1 });
export const actions: readonly string[] = STANDARD_ACTIONS;
`,
  });
}

/** A service module building a server with one model of its own. */
export function writeServerConsumer(folder: string): Promise<void> {
  return writeFiles(folder, {
    'tsconfig.json': strictTsconfig(),
    'src/server.ts': `
import { ResourcePolicy, type PolicyUser } from '@gatehouse/engine';
import { createServer, defineModel, fields, type GatehouseServer } from '@gatehouse/server';
import { z } from 'zod';

const notes = defineModel({
  slug: 'notes',
  tenantOwned: true,
  attributes: { organization_id: 'integer', title: 'string', author_id: 'integer' },
  fillable: ['title'],
  authorColumn: 'author_id',
  sorts: ['title'],
  validation: { create: z.object({ title: fields.text('title') }) },
});

class NotePolicy extends ResourcePolicy<{ author_id: number }> {
  override update(user: PolicyUser | null, note: { author_id: number }): boolean {
    return super.update(user, note) && note.author_id === user?.id;
  }
}

export const server: GatehouseServer = await createServer({
  database: { connectionString: process.env.DATABASE_URL ?? 'postgres://localhost/notes' },
  tokens: { secretKey: process.env.GATEHOUSE_PASETO_SECRET_KEY ?? '' },
  routeGroups: [{ name: 'tenant', prefix: '{organization}', models: ['notes'] }],
  data: { models: [notes], policies: { NotePolicy } },
});
`,
  });
}

/** A Vite + React + TypeScript app on the web client. */
export function writeWebConsumer(folder: string): Promise<void> {
  return writeFiles(folder, {
    'tsconfig.json': strictTsconfig({ module: 'esnext', moduleResolution: 'bundler', jsx: 'react-jsx', lib: ['es2022', 'dom'], types: [] }),
    'index.html': '<!doctype html><html><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n',
    'src/main.tsx': `
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AuthProvider, configureApi, useAuth, useModelIndex } from '@gatehouse/client';

interface Post {
  id: number;
  title: string;
}

configureApi({ baseURL: 'https://gatehouse.example/api' });

function Posts() {
  const { data, meta, isLoading } = useModelIndex<Post>('posts', { sort: '-id' });
  if (isLoading) return <p>Loading</p>;
  return (
    <ul data-total={meta?.total}>
      {data?.map((post) => <li key={post.id}>{post.title}</li>)}
    </ul>
  );
}

function App() {
  const { isAuthenticated, login } = useAuth<{ name: string }>();
  return isAuthenticated ? <Posts /> : <button onClick={() => void login('editor@acme.test', 'password123!')}>Sign in</button>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AuthProvider>
      <App />
    </AuthProvider>
  </StrictMode>,
);
`,
  });
}
