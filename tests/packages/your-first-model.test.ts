import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api } from '../server/support/http-client.js';
import { startCommand, type RunningCommand } from '../../harness/cli.js';
import { PACK_COMMAND, REPOSITORY, scratchFolder, sharedTarballs, type Tarballs } from '../../harness/packed-packages.js';
import { readTutorial, type Tutorial } from '../support/readme-tutorial.js';

// "Your first model" (docs/getting-started/your-first-model.md), followed as a reader follows it:
// in a fresh folder outside the repository, its files written as printed and its commands run as
// printed, by a shell, on the packages its first command packed. Until they are published,
// `npm install @gatehouse/server` (and `@gatehouse/engine`) is the line that command printed for
// it, as the page says. The HTTP requests its curl lines show are made with the
// tests' HTTP client, and its psql line with pg, since CI installs neither curl nor psql.

const run = promisify(execFile);
const MINUTES = 60_000;
// Tests that start the installed CLI twice: each start loads the whole server (and tsx for the
// TypeScript config), which takes seconds on a machine busy with the rest of the suite.
const CLI_RUNS = 2 * MINUTES;
const PAGE = 'docs/getting-started/your-first-model.md';

let tarballs: Tarballs;
let tutorial: Tutorial;
let page: string;
let folder: string;
let server: RunningCommand | undefined;
let api: Api;

// Only what a reader's shell would have: no database, key or home of the test run, and none of
// the repository's own node_modules/.bin, so `npx gatehouse` is the installed one. npm prefers
// its cache and stays quiet, so a run after the first needs no network for unchanged versions.
const environment = (): NodeJS.ProcessEnv => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(DATABASE_URL|GATEHOUSE_|PG|NODE_ENV$|PORT$)/.test(name)));
  const path = (process.env.PATH ?? '').split(delimiter).filter((entry) => !entry.startsWith(REPOSITORY));
  const npm = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_loglevel: 'error' };
  return { ...env, ...npm, PATH: [dirname(process.execPath), ...path].join(delimiter), PORT: '0' };
};

async function shell(command: string): Promise<string> {
  try {
    return (await run('sh', ['-c', command], { cwd: folder, env: environment(), maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    throw new Error(`\`${command}\` failed:\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
  }
}

/** The install line `npm run pack:packages` printed for a package, to run where the page names it. */
function packedInstall(name: string): string {
  const line = tarballs.printed.split('\n').find((printed) => printed.startsWith('npm install ') && printed.endsWith(`  # ${name}`));
  if (line === undefined) throw new Error(`${PACK_COMMAND} printed no install line for ${name}:\n${tarballs.printed}`);
  return line;
}

/** The command a sentence of the page names in backticks (outside its fenced blocks), as one line. */
const inlineCommand = (start: string) => {
  const prose = page.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '');
  const found = [...prose.matchAll(/`([^`]+)`/g)].map(([, code]) => code!.replace(/\s+/g, ' ')).find((code) => code.startsWith(start));
  if (found === undefined) throw new Error(`The tutorial names no \`${start} ...\``);
  return found;
};

const block = (pattern: RegExp) => {
  const found = tutorial.shell.find((commands) => commands.some((command) => pattern.test(command)));
  if (!found) throw new Error(`The tutorial has no shell block with ${pattern}`);
  return found;
};

async function login(email: string, password: string): Promise<string> {
  const answer = await api.post('/api/auth/login', { body: { email, password } });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

beforeAll(async () => {
  [tarballs, tutorial, page] = await Promise.all([sharedTarballs(inject('packFolder')), readTutorial(PAGE), readFile(join(REPOSITORY, PAGE), 'utf8')]);
  // A folder the embedded cluster's own user may enter, as a reader's project folder is.
  folder = join(await scratchFolder('tutorial'), 'my-projects');
  await chmod(dirname(folder), 0o755);
  // The run's tarballs were packed by this very command, in a copy of the checkout.
  expect(tutorial.shell[0]).toEqual([PACK_COMMAND]);
  const [makeFolder, ...setup] = tutorial.shell[1]!;
  expect(makeFolder).toBe('mkdir my-projects && cd my-projects');
  expect(setup).toEqual(expect.arrayContaining(['npm install @gatehouse/server', 'npm install @gatehouse/engine']));
  await mkdir(folder);
  for (const command of setup) {
    const [, workspacePackage] = /^npm install (@gatehouse\/[\w-]+)$/.exec(command) ?? [];
    await shell(workspacePackage === undefined ? command : packedInstall(workspacePackage));
  }
  for (const [path, text] of tutorial.files) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  for (const command of block(/gatehouse migrate/)) await shell(command);
  const [start] = block(/gatehouse start/);
  expect(start).toBe('npx gatehouse start');
  server = startCommand('sh', ['-c', start!], environment(), { cwd: folder, detached: true });
  api = new Api(/Gatehouse listening on (\S+)/.exec(await server.waitFor(/Gatehouse listening on \S+/, 2 * MINUTES))![1]!);
}, 15 * MINUTES);

/** Whether a process of the group `pid` leads is still alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  const pid = server?.child.pid;
  if (server !== undefined && pid !== undefined && server.child.exitCode === null) {
    process.kill(-pid, 'SIGTERM');
    await server.exited;
    // The shell goes first: the server and its embedded cluster still write into the folder while they stop.
    while (groupAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // A file the cluster wrote as it stopped can still land while the folder is removed: rm tries again then.
  if (folder !== undefined) await rm(dirname(folder), { recursive: true, force: true, maxRetries: 5 });
}, 2 * MINUTES);

describe('Your first model (docs), from the packed packages in a fresh folder', () => {
  let ada: string;
  let bob: string;

  beforeAll(async () => {
    [ada, bob] = await Promise.all([login('ada@example.com', 'correct horse battery'), login('bob@example.com', 'bob builds things')]);
  });

  // Each test makes the projects it reads, so the steps pass alone and in any order.
  const create = async (organization: string, name: string) => {
    const created = await api.post(`/api/${organization}/projects`, { token: ada, body: { name } });
    expect(created.status).toBe(201);
    return created.body.id as number;
  };
  const acmeNames = async () => ((await api.get('/api/acme/projects?per_page=100', { token: ada })).body.data as { name: string }[]).map((project) => project.name);

  it('creates a project through both gates and reads it back as another member', async () => {
    const created = await api.post('/api/acme/projects', { token: ada, body: { name: 'Rocket', budget: 5000 } });
    expect(created).toMatchObject({ status: 201, body: { name: 'Rocket', budget: 5000 } });
    const rocket = created.body.id as number;
    expect(await api.get(`/api/acme/projects/${rocket}`, { token: bob })).toMatchObject({ status: 200, body: { id: rocket, name: 'Rocket', budget: 5000 } });
  });

  it('refuses a member the budget field with the 403 naming it, and writes nothing', async () => {
    const refused = await api.post('/api/acme/projects', { token: bob, body: { name: 'Kite', budget: 10 } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: 'You are not allowed to set the following field(s): budget', reason: { gate: 'fields', fields: ['budget'] } });
    expect(await acmeNames()).not.toContain('Kite');
    expect(await api.post('/api/acme/projects', { token: bob, body: { name: 'Kite' } })).toMatchObject({ status: 201, body: { name: 'Kite', budget: null } });
  });

  it("answers another organization's project as if it did not exist", async () => {
    const beacon = await create('acme', 'Beacon');
    expect(await api.get(`/api/globex/projects/${beacon}`, { token: ada })).toMatchObject({ status: 404 });
    expect(await api.request('PATCH', `/api/globex/projects/${beacon}`, { token: ada, body: { name: 'Stolen' } })).toMatchObject({ status: 404 });
    expect(await api.delete(`/api/globex/projects/${beacon}`, { token: ada })).toMatchObject({ status: 404 });
    expect(await api.get(`/api/acme/projects/${beacon}`, { token: ada })).toMatchObject({ status: 200, body: { name: 'Beacon' } });
  });

  it('updates and deletes as the policy allows: the owner may, the member may not delete', async () => {
    const glider = await create('acme', 'Glider');
    expect(await api.request('PATCH', `/api/acme/projects/${glider}`, { token: bob, body: { name: 'Glider II' } })).toMatchObject({ status: 200, body: { name: 'Glider II' } });
    expect(await api.delete(`/api/acme/projects/${glider}`, { token: bob })).toMatchObject({ status: 403 });
    const doomed = await create('acme', 'Doomed');
    expect((await api.delete(`/api/acme/projects/${doomed}`, { token: ada })).status).toBe(204);
    expect((await api.get(`/api/acme/projects/${doomed}`, { token: ada })).status).toBe(404);
  });

  it("lets the analyst read Acme's projects and none of Globex's", async () => {
    await create('acme', 'Zeppelin');
    await create('globex', 'Globex secret');
    const [line] = block(/psql/);
    const [, password, urlCommand, statement] = /^PGPASSWORD='([^']+)' psql "\$\((.+)\)" -c '([^']+)'$/.exec(line!) ?? [];
    expect(urlCommand).toBe('npx gatehouse db url --role acme_reader');
    const url = new URL((await shell(urlCommand!)).trim());
    url.password = encodeURIComponent(password!);
    const analyst = new pg.Client({ connectionString: url.toString() });
    await analyst.connect();
    try {
      const { rows } = await analyst.query<{ name: string }>(statement!);
      const seen = rows.map((row) => row.name).sort();
      expect(seen).toContain('Zeppelin');
      expect(seen).toEqual((await acmeNames()).sort());
    } finally {
      await analyst.end();
    }
  });

  it('passes its policy tests without the database or the server, and names the line a mistake breaks', async () => {
    const [command] = block(/gatehouse policy test/);
    expect(command).toBe('npx gatehouse policy test');
    expect(await shell(command!)).toBe('15 passed, 0 failed\n');
    // The mistake the step describes, in a copy of the config, and the output it prints.
    const [, printed] = /```text\n(FAIL [\s\S]*?)```/.exec(page) ?? [];
    const config = tutorial.files.get('gatehouse.config.ts')!;
    expect(config).toContain("'projects.update'],");
    await writeFile(join(folder, 'mistake.config.ts'), config.replace("'projects.update'],", "'projects.update', 'projects.budget'],"));
    await expect(shell(`${command} --config mistake.config.ts`)).rejects.toThrow(`failed:\n${printed}`);
  }, CLI_RUNS);

  it("takes a role's new permission into effect on the member's very next request", async () => {
    const grant = inlineCommand('npx gatehouse role permissions');
    expect(grant).toBe('npx gatehouse role permissions acme member --grant projects.budget');
    await shell(grant);
    try {
      expect(await api.post('/api/acme/projects', { token: bob, body: { name: 'Balloon', budget: 20 } })).toMatchObject({ status: 201, body: { name: 'Balloon', budget: 20 } });
    } finally {
      await shell(grant.replace('--grant', '--revoke'));
    }
  }, CLI_RUNS);

  // The installed CLI is in the project's node_modules/.bin, which the reader's shell does not
  // search: a command its messages advise must run there as printed.
  it('advises commands that run as printed in the project it is installed in', async () => {
    const [, advised] = /Run `([^`]+)`\s+for a command/.exec(await shell('npx gatehouse --help')) ?? [];
    expect(advised).toBe('npx gatehouse <command> --help');
    expect(await shell(advised!.replace('<command>', 'migrate'))).toContain('Usage: gatehouse migrate');
  }, CLI_RUNS);

  it('proves the record gate of the database it built: every check of projects passes', async () => {
    // Isolation and the analyst's reads are proved only with rows in two organizations.
    await Promise.all([create('acme', 'Verified'), create('globex', 'Verified too')]);
    const verify = inlineCommand('npx gatehouse db verify');
    expect(verify).toBe('npx gatehouse db verify');
    const projects = (await shell(verify)).split('\n').filter((line) => /^\w+ +projects /.test(line));
    expect(projects.filter((line) => !line.startsWith('ok '))).toEqual([]);
    expect(projects).toEqual(expect.arrayContaining([expect.stringMatching(/ isolation: /), expect.stringMatching(/ analyst reads: /)]));
  }, CLI_RUNS);
});
