import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeList } from '../../server/policy-tests/list-verdict.js';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../support/database.js';
import { gatehouseRun } from '../support/gatehouse-in-process.js';
import { queryOnce } from '../support/query.js';

// `gatehouse policy test` with records and list tests, in-process on a copy of the demo database:
// each list is computed by the CASL rules the browser gets and by the server's SQL filter.
let folder: string;
let database: TestDatabase;

/** `gatehouse policy test <args>` on the database at `databaseUrl`: its exit code and the lines it prints. */
async function gatehouse(databaseUrl: string, ...args: string[]): Promise<{ code: number; lines: string[] }> {
  const { code, stdout } = await gatehouseRun(databaseUrl, ['policy', 'test', ...args]);
  return { code, lines: stdout.split('\n').filter(Boolean) };
}

const file = async (name: string, text: string) => {
  const path = join(folder, name);
  await writeFile(path, text);
  return path;
};

const CONTRIBUTOR = new URL('../../policies/tests/contributor.policy.yaml', import.meta.url).pathname;

const LIST_FILE = `principals:
  contributor: { role: contributor, id: 6 }
records:
  posts:
    - { id: 1, status: published, author_id: 2 }
    - { id: 2, status: draft, author_id: 6 }
    - { id: 3, status: draft, author_id: null }
tests:
  - name: own posts
    list: { as: contributor, action: update, expect: [1, 2] }
  - list: { as: contributor, action: index, expect: [1, 2] }
`;

const postsRows = () => queryOnce<{ n: number }>(database.ownerUrl, 'SELECT count(*)::int AS n FROM posts');

beforeAll(async () => {
  [folder, database] = await Promise.all([mkdtemp(join(tmpdir(), 'gatehouse-policy-lists-')), createTestDatabase()]);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await database.drop();
});

describe('gatehouse policy test: records and list tests', () => {
  it('passes the demo’s contributor file, in memory and in SQL, and keeps no row', async () => {
    const before = await postsRows();
    const { lines, code } = await gatehouse(database.ownerUrl, CONTRIBUTOR);
    expect(code).toBe(0);
    expect(lines).toEqual(['22 passed, 0 failed']);
    expect(await postsRows()).toEqual(before);
  });

  it('fails a list whose expect is wrong, naming the ids and the rules', async () => {
    const path = await file('wrong.policy.yaml', LIST_FILE);
    const { lines, code } = await gatehouse(database.ownerUrl, path);
    expect(code).toBe(1);
    expect(lines).toEqual([
      `FAIL ${path}:10 own posts: list update expected [1, 2], got [2]: missing 1; posts.update holds by posts.update:own`,
      '1 passed, 1 failed',
    ]);
  });

  it('takes a bare role name as the caller of a list, with no principals in the file', async () => {
    const text = `records:
  posts:
    - { id: 1, status: published, author_id: 2 }
    - { id: 4, status: draft, author_id: 2 }
tests:
  - list: { as: editor, action: update, expect: [1, 4] }
  - list: { as: viewer, action: update, expect: [] }
`;
    const passing = await gatehouse(database.ownerUrl, await file('roles.policy.yaml', text));
    expect(passing.lines).toEqual(['2 passed, 0 failed']);
    expect(passing.code).toBe(0);
    const unknown = await gatehouse(database.ownerUrl, await file('no-role.policy.yaml', `${text}  - list: { as: author, action: update, expect: [] }\n`));
    expect(unknown.code).toBe(1);
    expect(unknown.lines[0]).toMatch(/no-role\.policy\.yaml:8.*no principal author in principals, and no role author/);
  });

  it('reads relation rows through some and every, with no related row at all', async () => {
    const demo = new URL('../../policies/gatehouse.config.ts', import.meta.url).href;
    const policy = new URL('../../policies/post-policy.ts', import.meta.url).href;
    const config = await file(
      'discussed.config.ts',
      `import demo from '${demo}';
import { PostPolicy as DemoPostPolicy } from '${policy}';
const PostPolicy = class PostPolicy extends DemoPostPolicy {
  static conditions = { ...DemoPostPolicy.conditions, discussed: { comments: { some: { author_id: { context: 'user.id' } } } }, mine_only: { comments: { every: { author_id: { context: 'user.id' } } } } };
};
export default { ...demo, data: { ...demo.data, policies: { ...demo.data.policies, PostPolicy } } };
`,
    );
    const path = await file(
      'relations.policy.yaml',
      `roles:
  commenter: [posts.index:discussed, posts.update:mine_only]
principals:
  commenter: { role: commenter, id: 7 }
records:
  posts:
    - { id: 1, status: published }
    - { id: 2, status: published }
    - { id: 3, status: published }
  comments:
    - { id: 10, post_id: 1, author_id: 7 }
    - { id: 11, post_id: 2, author_id: 8 }
    - { id: 12, post_id: 2, author_id: 7 }
tests:
  - list: { as: commenter, model: posts, action: index, expect: [1, 2] }
  - list: { as: commenter, model: posts, action: update, expect: [1, 3] }
`,
    );
    const { lines, code } = await gatehouse(database.ownerUrl, path, '--config', config);
    expect(code).toBe(0);
    expect(lines).toEqual(['2 passed, 0 failed']);
  });

  it('fails every list test, saying why, when no database can be reached', async () => {
    const path = await file('offline.policy.yaml', LIST_FILE.replace('[1, 2] }\n  - list', '[2] }\n  - list'));
    const { lines, code } = await gatehouse('postgres://nobody@127.0.0.1:1/gatehouse', path);
    expect(code).toBe(1);
    expect(lines[0]).toBe(
      `FAIL ${path}:10 own posts: list update expected [2], got [2] in memory, none in SQL: no database to compute the SQL list on: ` +
        'Cannot use the database at 127.0.0.1:1 (DATABASE_URL): connection refused, is PostgreSQL running there?',
    );
    expect(lines.at(-1)).toBe('0 passed, 2 failed');
  });

  it('fails the list tests of a database that is not migrated, saying so', async () => {
    const empty = await createEmptyDatabase();
    try {
      const path = await file('unmigrated.policy.yaml', LIST_FILE);
      const { lines, code } = await gatehouse(empty.ownerUrl, path);
      expect(code).toBe(1);
      expect(lines.at(-2)).toBe(
        `FAIL ${path}:11 contributor posts: list index expected [1, 2], got [1, 2] in memory, none in SQL: the SQL list could not be computed: ` +
          'the database has no table posts for model posts: migrate it first (npx gatehouse migrate)',
      );
    } finally {
      await empty.drop();
    }
  });

  it.each([
    ['an unknown attribute', LIST_FILE.replace('status: draft, author_id: 6', 'state: draft, author_id: 6'), 6, 'records.posts[1].state: state is not an attribute of model posts'],
    ['a value of the wrong type', LIST_FILE.replace('author_id: 2', 'author_id: two'), 5, 'records.posts[0].author_id: must be an integer (32 bits) or null'],
    ['an id given twice', LIST_FILE.replace('id: 3,', 'id: 2,'), 7, 'records.posts[2].id: id 2 is given twice'],
    ['a row without an id', LIST_FILE.replace('id: 3, ', ''), 7, 'records.posts[2].id: is required'],
    ['an unknown model', LIST_FILE.replace('  posts:', '  post:'), 4, 'records.post: no registered model post'],
    ['a list test with a record test’s keys', LIST_FILE.replace('  - name: own posts\n', '  - principal: contributor\n'), 9, 'tests[0].principal: is not a key of a list test'],
    ['an unknown action', LIST_FILE.replace('action: update', 'action: edit'), 10, 'tests[0].list.action: no action edit'],
    ['a resource naming no record', LIST_FILE.replace('records:', 'resources:\n  ghost: { model: posts, record: 9 }\nrecords:'), 4, 'resources.ghost.record: no record 9 of posts in records'],
  ])('names the file, the line and the key of %s, before using the database', async (_case, text, line, problem) => {
    const path = await file('broken-records.policy.yaml', text);
    const { lines, code } = await gatehouse('postgres://nobody@127.0.0.1:1/gatehouse', path);
    expect(code).toBe(1);
    expect(lines).toEqual([expect.stringContaining(`FAIL ${path}:${line}: ${problem}`), '0 passed, 1 failed']);
  });
});

describe('the in-memory and SQL lists disagreeing', () => {
  it('fails a test whose lists differ, even when one of them is the expected one', () => {
    expect(judgeList([1, 4], [1, 4], [1])).toEqual({
      expected: '[1, 4]',
      actual: '[1, 4] in memory, [1] in SQL',
      passed: false,
      difference: 'the in-memory check and the SQL filter disagree: 4 in memory only',
    });
    expect(judgeList([2], [3], [2]).difference).toBe('the in-memory check and the SQL filter disagree: 3 in memory only; 2 in SQL only');
    expect(judgeList([4, 1], [1, 4], [4, 1]).passed).toBe(true);
  });

  it('agrees on a column whose collation is case-insensitive: SQL compares text byte for byte, as the browser does', async () => {
    // PostgreSQL's = on this column matches `Published` to `published`; JavaScript's does not, so the compiler adds collate "C".
    const collated = await createTestDatabase();
    try {
      await queryOnce(
        collated.ownerUrl,
        "CREATE COLLATION case_insensitive (provider = icu, locale = 'und-u-ks-level2', deterministic = false); DROP VIEW analytics.posts; " +
          'ALTER TABLE posts ALTER COLUMN status TYPE text COLLATE case_insensitive',
      );
      const text = `${LIST_FILE.replaceAll('[1, 2]', '[2]').replace('status: published', 'status: Published').replace('records:', 'resources:\n  welcome: { model: posts, record: 1 }\nrecords:')}  - { principal: contributor, resource: welcome, actions: { show: deny } }\n`;
      const path = await file('collation.policy.yaml', text);
      const { lines, code } = await gatehouse(collated.ownerUrl, path);
      expect(lines).toEqual(['4 passed, 0 failed']);
      expect(code).toBe(0);
    } finally {
      await collated.drop();
    }
  });
});
