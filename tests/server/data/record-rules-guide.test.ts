import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { subject } from '@casl/ability';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackAbility, type ConditionNode, type PolicyClass } from '@gatehouse/engine';
import { REPOSITORY } from '../../../harness/packed-packages.js';
import { demoModels } from '../../../policies/demo-models.js';
import { demoPolicies } from '../../../policies/demo-policies.js';
import { COMPARISONS, CONTEXT_KEYS, MEMBERSHIPS, QUANTIFIERS } from '../../../engine/conditions/condition-tree.js';
import { gatedQuery } from '../../../server/listing/gated-query.js';
import { createModelRegistry } from '../../../server/models/model-registry.js';
import type { LooseTransaction } from '../../../server/models/loose-schema.js';
import { gatehouseRun } from '../../support/gatehouse-in-process.js';
import { commandWords, readCodeBlocks, readSection, type CodeBlock } from '../../support/readme-tutorial.js';
import { startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Issue 35: every block of docs/guides/record-rules.md, taken out of the page as printed and run
// on a real server over the demo database, whose ids (the contributor is user 6, its role 5) are
// those every fresh demo seed gives. The server's PostPolicy is the guide's migration note; its
// `sh` blocks run through the CLI, its JSON answers are the server's for the same request (an
// answer may leave out top-level keys; those it shows are exact), its SQL is the compiler's.

const PAGE = 'docs/guides/record-rules.md';
// Inside the repository, so the policies' imports resolve to the workspace's packages.
const folder = join(REPOSITORY, 'tests', 'server', 'data', `.record-rules-guide-${process.pid}`);
const POLICY_FILES = ['before.ts', 'after.ts', 'migration.ts'];

let blocks: CodeBlock[];
let server: TestServer;
let migration: PolicyClass;
const tokens: Record<string, string> = {};

/** The blocks of one section of the guide, in order. */
const section = (heading: string) => blocks.filter((block) => block.section === heading);
const json = (block: CodeBlock | undefined) => JSON.parse(block!.text) as Record<string, unknown>;
/** The keys an answer block shows, of the real answer. */
const shown = (answer: Record<string, unknown>, block: CodeBlock | undefined) => Object.fromEntries(Object.keys(json(block)).map((key) => [key, answer[key]]));

/** The `npx gatehouse …` lines of a shell block, run in turn; what they printed. */
async function runShell(block: CodeBlock | undefined) {
  const lines = block!.text.trim().split('\n');
  const runs = [];
  for (const line of lines) {
    const [npx, program, ...args] = commandWords(line);
    expect([npx, program]).toEqual(['npx', 'gatehouse']);
    runs.push(await gatehouseRun(server.database.ownerUrl, args));
  }
  return { code: Math.max(...runs.map((run) => run.code)), stdout: runs.map((run) => run.stdout).join(''), stderr: runs.map((run) => run.stderr).join('') };
}

/** A class body: the lines between `export class … {` and its closing `}`. */
const classBody = (block: CodeBlock | undefined) => /^export class [^\n]*\{\n([\s\S]*?)^\}$/m.exec(block!.text)![1]!;

beforeAll(async () => {
  blocks = await readCodeBlocks(PAGE);
  const [before, after] = section('From a code override to a condition');
  const [note] = section('Migration: policies that override record methods');
  await mkdir(folder, { recursive: true });
  await Promise.all([before, after, note].map((block, index) => writeFile(join(folder, POLICY_FILES[index]!), block!.text)));
  ({ PostPolicy: migration } = (await import(pathToFileURL(join(folder, 'migration.ts')).href)) as { PostPolicy: PolicyClass });
  server = await startDataServer({ data: { models: demoModels, policies: { ...demoPolicies, PostPolicy: migration } } });
  for (const who of ['contributor', 'editor', 'owner']) tokens[who] = await server.login(`${who}@acme.test`);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await server?.close();
});

const asked = (who: string, body: object) => server.api.post('/api/acme/authorize', { token: tokens[who]!, body });

describe('the Record rules guide, word for word', () => {
  it('holds the blocks this test runs, and no other', () => {
    expect(blocks.map((block) => `${block.section}: ${block.language}${block.notRun === undefined ? '' : ' (not run)'}`)).toEqual([
      'From a code override to a condition: ts',
      'From a code override to a condition: ts',
      'Permissions with a condition: sh',
      'Permissions with a condition: text',
      'Permissions with a condition: sh',
      'Permissions with a condition: text',
      'Permissions with a condition: http',
      'Permissions with a condition: json',
      'How the SQL is built: sql',
      'How the SQL is built: json',
      'What the client receives: json',
      'What the client receives: tsx (not run)',
      'Which records: plans for other services: json',
      'Which records: plans for other services: json',
      'Explain: sh',
      'Explain: text',
      'Migration: policies that override record methods: ts',
    ]);
  });

  it('compiles its policies, and the migration note is the first two together: the override kept beside the conditions', async () => {
    const [before, after] = section('From a code override to a condition');
    const [note] = section('Migration: policies that override record methods');
    expect(classBody(note)).toContain(classBody(after));
    expect(classBody(note)).toContain(classBody(before));
    // Type-checked with the repository's options, the guide's files only (not what they import),
    // without the DOM's and Node's declarations, which they do not use and which take seconds to read.
    const config = ts.getParsedCommandLineOfConfigFile(join(REPOSITORY, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
    const files = POLICY_FILES.map((file) => join(folder, file));
    const program = ts.createProgram(files, { ...config.options, lib: ['lib.es2023.d.ts'], types: [] });
    const problems = files
      .flatMap((file) => ts.getPreEmitDiagnostics(program, program.getSourceFile(file)))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
    // The conditions are registered as the server registers them: a typo would throw here.
    const { PostPolicy: declared } = (await import(pathToFileURL(join(folder, 'after.ts')).href)) as { PostPolicy: PolicyClass };
    expect(() => createModelRegistry(demoModels, { ...demoPolicies, PostPolicy: declared })).not.toThrow();
    expect(declared.conditions).toEqual(migration.conditions);
  });

  it('names every operator and fact of the condition language, and no other', async () => {
    const language = await readSection(PAGE, 'The condition language');
    const tableRows = language.split('\n').filter((line) => /^\| `/.test(line));
    const named = new Set(tableRows.flatMap((row) => (row.split(' | ')[0]!.match(/`[^`]+`/g) ?? []).flatMap((code) => code.match(/\b[a-z_]+\b/g) ?? [])));
    for (const placeholder of ['attr', 'value', 'rel', 'condition', 'true', 'false']) named.delete(placeholder);
    expect([...named].sort()).toEqual([...COMPARISONS, ...MEMBERSHIPS, 'null', 'and', 'or', 'not', ...QUANTIFIERS].sort());
    const facts = /one of the caller's facts: (.*?)\.(?: |$)/.exec(language.replace(/\s+/g, ' '))![1]!;
    expect(facts.match(/'[^']+'/g)!.map((fact) => fact.slice(1, -1))).toEqual([...CONTEXT_KEYS]);
  });

  it('grants and denies conditioned permissions through the CLI, and refuses a condition the policy does not declare', async () => {
    const [grant, printed, typo, refusal, request, answer] = section('Permissions with a condition');
    try {
      expect(await runShell(grant)).toEqual({ code: 0, stdout: printed!.text, stderr: '' });
      const [published, draft] = [1, 3];
      const checks = [published, draft].map((id) => ({ model: 'posts', action: 'destroy', id }));
      // Refused as its DELETE is, with a 403 (the editor may still read the post).
      const [refused, allowed] = (await asked('editor', { checks })).body.results;
      expect([refused.allowed, refused.reason.gate, allowed.allowed]).toEqual([false, 'policy', true]);
      expect(await runShell(typo)).toEqual({ code: 1, stdout: '', stderr: refusal!.text });

      const [head, ...body] = request!.text.trim().split('\n');
      const [method, path] = head!.split(' ');
      const invalid = await server.api.request(method!, path!, { token: tokens.owner, body: JSON.parse(body.join('\n')) });
      expect(invalid.status).toBe(422);
      expect(invalid.body).toEqual(json(answer));
    } finally {
      await gatehouseRun(server.database.ownerUrl, ['member', 'permissions', '--org', 'acme', '--email', 'editor@acme.test', '--clear', 'posts.destroy:published', '--config', 'policies/gatehouse.config.ts']);
    }
  });

  it('builds the SQL it shows, and answers the 403 it shows for a post the contributor may read but not change', async () => {
    const [statement, forbidden] = section('How the SQL is built');
    // The contributor's own plan, as the server compiled it for its list.
    const [plan] = (await asked('contributor', { plans: [{ model: 'posts', action: 'index' }] })).body.plans;
    const role = await server.api.get('/api/acme/user-role', { token: tokens.contributor });
    const db = new Kysely<never>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (kysely) => new PostgresIntrospector(kysely),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    }) as unknown as LooseTransaction;
    const registry = createModelRegistry(demoModels, demoPolicies);
    const scope = { organizationId: role.body.organization.id, userId: 6, routeGroup: 'tenant', access: { condition: () => null, model: (slug: string) => registry.get(slug) } };
    const compiled = gatedQuery(db, registry.get('posts'), scope, 'without', plan.condition as ConditionNode).selectAll().compile();
    const [sqlText, parameters] = statement!.text.split('-- parameters: ');
    const oneLine = (text: string) => text.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
    expect(oneLine(compiled.sql)).toBe(oneLine(sqlText!));
    expect(compiled.parameters).toEqual(JSON.parse(parameters!));

    const refused = await server.api.request('PATCH', '/api/acme/posts/1', { token: tokens.contributor, body: { title: 'Mine now' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(json(forbidden));
  });

  it('gives the client the rules it shows, and they allow an update exactly where the server does', async () => {
    const [rules] = section('What the client receives');
    const role = await server.api.get('/api/acme/user-role', { token: tokens.contributor });
    expect(shown(role.body, rules)).toEqual(json(rules));

    const own = await server.api.post('/api/acme/posts', { token: tokens.contributor, body: { title: 'Cora’s draft', status: 'draft' } });
    const posts = await server.sql<{ id: number; status: string; author_id: number | null }>(
      "SELECT id, status, author_id FROM posts WHERE organization_id = (SELECT id FROM organizations WHERE slug = 'acme') AND deleted_at IS NULL ORDER BY id",
    );
    expect(posts.map((post) => post.id)).toContain(own.body.id);
    const decided = await asked('contributor', { checks: posts.map((post) => ({ model: 'posts', action: 'update', id: post.id })) });
    const allowed = decided.body.results.map((result: { allowed: boolean }) => result.allowed);
    expect(allowed).toContain(true);
    expect(allowed).toContain(false);
    const browser = unpackAbility(role.body.rules);
    expect(posts.map((post) => browser.can('update', subject('posts', { ...post })))).toEqual(allowed);
  });

  it('answers the plans it shows', async () => {
    const [request, answer] = section('Which records: plans for other services');
    const plans = await asked('contributor', json(request));
    expect(plans.status).toBe(200);
    expect(plans.body).toEqual(json(answer));
  });

  it('explains on a terminal what it shows', async () => {
    // The CLI reads the demo's config, whose PostPolicy declares the same conditions.
    const [command, printed] = section('Explain');
    expect(await runShell(command)).toEqual({ code: 0, stdout: printed!.text, stderr: '' });
  });

  it('keeps the override working beside the conditions: the editor updates only their own posts, the contributor its own', async () => {
    const create = async (who: string, title: string) => (await server.api.post('/api/acme/posts', { token: tokens[who]!, body: { title, status: 'draft' } })).body.id as number;
    const [editors, contributors] = [await create('editor', 'Editor’s own'), await create('contributor', 'Contributor’s own')];
    const update = (who: string, id: number) => server.api.request('PATCH', `/api/acme/posts/${id}`, { token: tokens[who]!, body: { title: 'Changed' } });
    expect((await update('editor', editors)).status).toBe(200);
    expect(await update('editor', contributors)).toMatchObject({ status: 403, body: { reason: { gate: 'policy', permission: 'posts.update' } } });
    expect((await update('contributor', contributors)).status).toBe(200);
    expect((await update('contributor', editors)).status).toBe(404);
    // The code decides one record at a time: the editor's plan cannot hold it.
    expect((await asked('editor', { plans: [{ model: 'posts', action: 'update' }] })).body.plans).toEqual([{ model: 'posts', action: 'update', kind: 'always' }]);
  });
});
