import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Builds only engine/ into a throw-away package and uses it from a plain Node project outside
// this repository, the way another service would after `npm install gatehouse`.

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const CONSUMER_SCRIPT = `
import { compileAbility, effectivePermissions, packAbilityRules, ResourcePolicy } from 'gatehouse/engine';

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
`;

const CONSUMER_TYPES = `
import { compileAbility, ResourcePolicy, type GatehouseAbility, type PolicyUser } from 'gatehouse/engine';

class CommentPolicy extends ResourcePolicy<{ author_id: number }> {
  static override model = 'Comment';
  override delete(user: PolicyUser | null, comment: { author_id: number }): boolean {
    return super.delete(user, comment) && comment.author_id === user?.id;
  }
}

const ability: GatehouseAbility = compileAbility(['comments.*']);
const allowed: boolean = new CommentPolicy({ user: null, ability, role: null, organization: null, routeGroup: null }).delete(null, { author_id: 1 });
export { allowed };
`;

let workspace: string;
let packageDir: string;
let consumerDir: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(await realpath(tmpdir()), 'gatehouse-engine-'));
  packageDir = join(workspace, 'gatehouse');
  consumerDir = join(workspace, 'consumer');

  const tsconfig = join(workspace, 'tsconfig.engine.json');
  await writeFile(
    tsconfig,
    JSON.stringify({
      extends: join(root, 'tsconfig.build.json'),
      compilerOptions: { rootDir: root, outDir: join(packageDir, 'dist') },
      include: [join(root, 'engine')],
    }),
  );
  await run(process.execPath, [tsc, '-p', tsconfig]);

  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  await writeFile(
    join(packageDir, 'package.json'),
    JSON.stringify({ name: 'gatehouse', type: 'module', exports: { './engine': manifest.exports['./engine'] } }),
  );
  await linkInto(join(packageDir, 'node_modules', '@casl', 'ability'), join(root, 'node_modules', '@casl', 'ability'));

  await mkdir(consumerDir, { recursive: true });
  await writeFile(join(consumerDir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await linkInto(join(consumerDir, 'node_modules', 'gatehouse'), packageDir);
  await writeFile(join(consumerDir, 'check.mjs'), CONSUMER_SCRIPT);
  await writeFile(join(consumerDir, 'check.ts'), CONSUMER_TYPES);
});

afterAll(async () => {
  if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
});

async function linkInto(path: string, target: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await symlink(await realpath(target), path, 'dir');
}

async function filesUnder(directory: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? filesUnder(join(directory, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
    ),
  );
  return nested.flat();
}

describe('gatehouse/engine as a standalone package', () => {
  it('compiles from engine/ alone, with declarations', async () => {
    const files = await filesUnder(join(packageDir, 'dist'));
    expect(files.filter((file) => !file.startsWith('engine/'))).toEqual([]);
    expect(files).toContain('engine/index.js');
    expect(files).toContain('engine/index.d.ts');
  });

  it('works from a plain Node script with only @casl/ability beside it', async () => {
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: consumerDir });
    expect(JSON.parse(stdout)).toEqual({
      permissions: ['comments.index', 'posts.*', '!posts.forceDelete'],
      checks: [true, false, false],
      policy: [true, false, false],
      packed: [
        ['index', 'comments'],
        ['*', 'posts'],
        ['forceDelete', 'posts', 0, 1],
      ],
    });
  });

  it('type-checks a TypeScript consumer against the published declarations', async () => {
    const result = run(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', 'check.ts'], {
      cwd: consumerDir,
    });
    await expect(result).resolves.toBeDefined();
  });
});
