import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { createServer, type GatehouseServer } from '../../server/create-server.js';
import { Api } from '../server/support/http-client.js';
import { ROOT, runCli, runCliOnTerminal, type CliRun } from '../../harness/cli.js';
import { createEmptyDatabase, type TestDatabase } from '../support/database.js';
import { gatehouseInProcess, gatehouseRun } from '../support/gatehouse-in-process.js';
import { queryOnce } from '../support/query.js';
import { asServiceLogin } from '../support/service-login.js';

// Each command is a Node process loading TypeScript: slow on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

// The operator's bootstrap, as docs/guides/administration.md tells it: a database migrated with
// the core alone (a config with no models, TWO_GROUPS: in a checkout no config means the demo),
// then users, organizations, members and roles made with the CLI, checked over HTTP against a real
// server on that database. Each test makes the users, organizations and roles it changes, under
// names of its own.
let db: TestDatabase;
let server: GatehouseServer;
let api: Api;
// The core alone, with the demo's route groups: `tenant`, and `admin` without tenancy.
const configDir = mkdtempSync(join(tmpdir(), 'gatehouse-admin-'));
const TWO_GROUPS = join(configDir, 'two-groups.config.mjs');

const PASSWORD = 'first-user-pass';

const gatehouse = (...args: string[]) => runCli(args, db.ownerUrl);
/** Fixtures through the same commands, in this process: only the command under test is spawned. */
const cli = (...args: string[]) => gatehouseInProcess(db.ownerUrl, args);
const sql = <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) => queryOnce<Row>(db.ownerUrl, text, values);

async function login(email: string, password = PASSWORD, group = ''): Promise<string> {
  const response = await api.post(`/api${group}/auth/login`, { body: { email, password } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.token as string;
}

/** The status of `GET /api/{org}/members` for the user: memberships.index decides it. */
const membersStatus = async (org: string, token: string) => (await api.get(`/api/${org}/members`, { token })).status;

function succeeded(run: CliRun): string {
  expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
  return run.stdout;
}

const unique = (label: string) => `${label}-${randomBytes(3).toString('hex')}`;
const newEmail = (label: string) => `${unique(label)}@example.test`;

/** A user made through `user create`, with the shared password unless told otherwise. */
async function newUser(label: string, ...extra: string[]): Promise<string> {
  const email = newEmail(label);
  await cli('user', 'create', '--email', email, '--name', label, '--password', PASSWORD, ...extra);
  return email;
}

/**
 * Each test's own setting, made as the README's bootstrap makes it: Ada owns acme-*, Ed is its
 * auditor (memberships.index, roles.index), empty-* has no member.
 */
async function bootstrap() {
  const [ada, ed] = [await newUser('ada', '--permissions', '*'), await newUser('ed')];
  const [acme, empty, auditor] = [unique('acme'), unique('empty'), unique('auditor')];
  await cli('org', 'create', '--name', 'Acme', '--slug', acme, '--owner', ada, '--config', TWO_GROUPS);
  await cli('org', 'create', '--name', 'Empty Co', '--slug', empty, '--config', TWO_GROUPS);
  await cli('role', 'create', auditor, '--org', acme, '--permissions', 'memberships.index, roles.index');
  await cli('member', 'add', '--org', acme, '--email', ed, '--role', auditor);
  return { ada, ed, acme, empty, auditor };
}

beforeAll(async () => {
  db = await createEmptyDatabase();
  await writeFile(
    TWO_GROUPS,
    "export default { routeGroups: [{ name: 'tenant', prefix: '{organization}', default: true }, { name: 'admin', prefix: 'admin', tenancy: 'none' }] };",
  );
  await cli('migrate', '--config', TWO_GROUPS);
  const { secretKey } = await generateTokenKeyPair();
  // The groups of the demo, which the member commands assume without a config in a checkout:
  // `tenant`, and `admin` without tenancy, where a user's own permissions (user create --permissions) apply.
  server = await createServer({
    database: asServiceLogin(await db.serviceUrl(), 2),
    tokens: { secretKey },
    routeGroups: [
      { name: 'tenant', prefix: '{organization}', default: true },
      { name: 'admin', prefix: 'admin', tenancy: 'none' },
    ],
    logger: pino({ level: 'silent' }),
  });
  api = new Api(await server.listen({ port: 0, host: '127.0.0.1' }));
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
  await rm(configDir, { recursive: true, force: true });
});

const UNDECLARED_OWN = "The permission posts.update:own names the condition own, but posts is not a model of this application: only a model's policy declares record conditions.";

const COMMANDS: Record<string, string[]> = {
  'user create': ['--email <email>', '--name <name>', '--password <password>', '--permissions <list>', '--config <file>'],
  'org create': ['--name <name>', '--slug <slug>', '--owner <email>', '--group <name>', '--config <file>'],
  'member add': ['--org <slug>', '--email <email>', '--role <role-slug>', '--group <name>', '--config <file>'],
  'member permissions': ['--org <slug>', '--email <email>', '--grant <list>', '--deny <list>', '--clear <list>', '--group <name>'],
  'role create': ['<slug>', '--name <name>', '--org <slug>', '--permissions <list>', '--config <file>'],
  'role permissions': ['--org <slug>', '--role <role-slug>', '--grant <list>', '--revoke <list>', '--config <file>'],
};

describe('--help', () => {
  it('lists the administration commands and describes each with its flags, changing nothing', async () => {
    const before = await tableCounts();
    const top = succeeded(await gatehouse('--help'));
    for (const group of ['user', 'org', 'member', 'role']) expect(top).toMatch(new RegExp(`^  ${group}\\b`, 'm'));
    const runs = await Promise.all(Object.keys(COMMANDS).map((command) => gatehouse(...command.split(' '), '--help')));
    Object.entries(COMMANDS).forEach(([command, flags], index) => {
      const help = succeeded(runs[index]!);
      expect(help).toContain(`Usage: gatehouse ${command}`);
      for (const flag of flags) expect(help, `${command} ${flag}`).toContain(flag);
    });
    expect(await tableCounts()).toEqual(before);
  });
});

describe('user create', () => {
  it('makes a user who signs in, holding the permissions given for groups without organizations', async () => {
    const [ada, ed] = [newEmail('ada'), newEmail('ed')];
    expect(succeeded(await gatehouse('user', 'create', '--email', ada, '--name', 'Ada Admin', '--password', PASSWORD, '--permissions', '*'))).toMatch(
      new RegExp(`^Created user ${ada.replace('.', '\\.')} \\(Ada Admin, id \\d+\\); own permissions: \\*\\.\n$`),
    );
    await login(ada);
    const admin = await login(ada, PASSWORD, '/admin');
    expect((await api.get('/api/admin/user-role', { token: admin })).body).toMatchObject({ role: null, permissions: ['*'] });
    // A space- or comma-separated list; without --permissions the user holds none of their own.
    succeeded(await gatehouse('user', 'create', '--email', ed, '--name', 'Ed', '--password', PASSWORD));
    const edToken = await login(ed, PASSWORD, '/admin');
    expect((await api.get('/api/admin/user-role', { token: edToken })).body).toMatchObject({ permissions: [] });
    expect(await sql('SELECT email, permissions FROM users WHERE email = ANY ($1) ORDER BY id', [[ada, ed]])).toEqual([
      { email: ada, permissions: ['*'] },
      { email: ed, permissions: [] },
    ]);
  });

  it('checks conditioned permissions against the models of --config, as role and member commands do', async () => {
    const [typo, own] = [newEmail('typo'), newEmail('own')];
    const demo = join(ROOT, 'policies', 'gatehouse.config.ts');
    expect(await gatehouse('user', 'create', '--email', typo, '--name', 'Typo', '--password', PASSWORD, '--permissions', 'posts.update:nosuch', '--config', demo)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'The permission posts.update:nosuch names the condition nosuch, which the posts policy does not declare (it declares own, published, visible).\n',
    });
    succeeded(await gatehouse('user', 'create', '--email', own, '--name', 'Own', '--password', PASSWORD, '--permissions', 'posts.update:own', '--config', demo));
    expect(await sql('SELECT email, permissions FROM users WHERE email = ANY ($1)', [[typo, own]])).toEqual([{ email: own, permissions: ['posts.update:own'] }]);
  });

  it('reads the password from one line of standard input when --password is left out', async () => {
    const piped = newEmail('piped');
    succeeded(await runCli(['user', 'create', '--email', piped, '--name', 'Piped'], db.ownerUrl, {}, 'piped-password\nignored\n'));
    await login(piped, 'piped-password');
  });

  it('asks twice on a terminal without echoing the password, and refuses two different ones', async () => {
    const [typedEmail, mistypedEmail] = [newEmail('typed'), newEmail('mistyped')];
    const typed = await runCliOnTerminal(['user', 'create', '--email', typedEmail, '--name', 'Typed'], db.ownerUrl, /Password/, ['typed-password', 'typed-password']);
    expect(typed.code, typed.stdout).toBe(0);
    expect(typed.stdout).toMatch(/Password: \r?\nPassword \(again\): \r?\nCreated user typed-/);
    expect(typed.stdout).not.toContain('typed-password');
    await login(typedEmail, 'typed-password');

    const mistyped = await runCliOnTerminal(['user', 'create', '--email', mistypedEmail, '--name', 'M'], db.ownerUrl, /Password/, ['one-password', 'another-password']);
    expect(mistyped.code).toBe(1);
    expect(mistyped.stdout).toContain('The password field confirmation does not match.');
    expect(await sql('SELECT id FROM users WHERE email = $1', [mistypedEmail])).toEqual([]);
  });
});

describe('organizations on a database migrated with the core alone', () => {
  it('POST /api/organizations makes the caller its owner: the owner role is a core row', async () => {
    const ed = await newUser('ed');
    const slug = unique('ed-works');
    const response = await api.post('/api/organizations', { token: await login(ed), body: { name: 'Ed Works', slug } });
    expect(response).toMatchObject({ status: 201, body: { slug } });
    expect((await api.get(`/api/${slug}/user-role`, { token: await login(ed) })).body).toMatchObject({ role: 'owner', permissions: ['*'] });
  });

  it('org create --owner makes an organization its owner reaches, audited with no user', async () => {
    const ada = await newUser('ada');
    const acme = unique('acme');
    expect(succeeded(await gatehouse('org', 'create', '--name', 'Acme', '--slug', acme, '--owner', ada, '--config', TWO_GROUPS))).toMatch(
      new RegExp(`^Created organization ${acme} \\(Acme, id \\d+\\)\\.\n${ada.replace('.', '\\.')} is its owner \\(route group tenant\\)\\.\n$`),
    );
    const members = await api.get(`/api/${acme}/members`, { token: await login(ada) });
    expect(members.status).toBe(200);
    expect(members.body.data).toEqual([expect.objectContaining({ email: ada, role: expect.objectContaining({ slug: 'owner' }) })]);
    expect(await sql('SELECT model, action, user_id FROM audit_logs WHERE organization_id = (SELECT id FROM organizations WHERE slug = $1) ORDER BY id', [acme])).toEqual([
      { model: 'organizations', action: 'created', user_id: null },
      { model: 'memberships', action: 'created', user_id: null },
    ]);
  });

  it('org create without --owner makes an organization with no member and its starting roles', async () => {
    const empty = unique('empty');
    expect(succeeded(await gatehouse('org', 'create', '--name', 'Empty Co', '--slug', empty, '--config', TWO_GROUPS))).toMatch(new RegExp(`^Created organization ${empty} \\(Empty Co, id \\d+\\)\\.\n$`));
    expect(await sql('SELECT r.slug, p.permissions FROM org_role_permissions p JOIN roles r ON r.id = p.role_id JOIN organizations o ON o.id = p.organization_id WHERE o.slug = $1', [empty])).toEqual([
      { slug: 'owner', permissions: ['*'] },
    ]);
    expect(await sql('SELECT u.id FROM user_roles u JOIN organizations o ON o.id = u.organization_id WHERE o.slug = $1', [empty])).toEqual([]);
  });
});

describe('roles and members', () => {
  it('role create --org gives a role permissions in the organization; member add makes a member who reaches it', async () => {
    const [ada, ed] = [await newUser('ada'), await newUser('ed')];
    const [acme, auditor] = [unique('acme'), unique('auditor')];
    await cli('org', 'create', '--name', 'Acme', '--slug', acme, '--owner', ada, '--config', TWO_GROUPS);
    expect(succeeded(await gatehouse('role', 'create', auditor, '--org', acme, '--permissions', 'memberships.index, roles.index'))).toMatch(
      new RegExp(`^Created role ${auditor} \\(Auditor \\w+, id \\d+\\)\\.\nIts permissions in ${acme}: memberships\\.index, roles\\.index\\.\n$`),
    );
    const token = await login(ed);
    expect((await api.get(`/api/${acme}/user-role`, { token })).status).toBe(404);
    expect(succeeded(await gatehouse('member', 'add', '--org', acme, '--email', ed, '--role', auditor))).toBe(`Added ${ed} to ${acme} as ${auditor} (route group tenant).\n`);
    expect((await api.get(`/api/${acme}/user-role`, { token })).body).toMatchObject({ role: auditor, permissions: ['memberships.index', 'roles.index'] });
    expect(await membersStatus(acme, token)).toBe(200);
  });

  it('role permissions revokes and grants, effective on the next request, and shows the list without options', async () => {
    const { ed, acme, auditor } = await bootstrap();
    const token = await login(ed);
    expect(succeeded(await gatehouse('role', 'permissions', acme, auditor, '--revoke', 'memberships.index'))).toBe(`Permissions of ${auditor} in ${acme}: roles.index.\n`);
    expect(await membersStatus(acme, token)).toBe(403);
    const all = `Permissions of ${auditor} in ${acme}: roles.index, memberships.index, invitations.index.\n`;
    expect(succeeded(await gatehouse('role', 'permissions', acme, auditor, '--grant', 'memberships.index invitations.index'))).toBe(all);
    expect(await membersStatus(acme, token)).toBe(200);
    expect(succeeded(await gatehouse('role', 'permissions', acme, auditor))).toBe(all);
    expect(
      await sql(
        "SELECT old_values, new_values, user_id FROM audit_logs WHERE model = 'role_permissions' AND organization_id = (SELECT id FROM organizations WHERE slug = $1) ORDER BY id DESC LIMIT 1",
        [acme],
      ),
    ).toEqual([
      {
        old_values: { permissions: ['roles.index'] },
        new_values: { permissions: ['roles.index', 'memberships.index', 'invitations.index'] },
        user_id: null,
      },
    ]);
  });

  it('member permissions: a deny is a 403, --clear lifts it, a grant adds to the role', async () => {
    const { ed, acme, auditor } = await bootstrap();
    const token = await login(ed);
    expect(succeeded(await gatehouse('member', 'permissions', acme, ed, '--deny', 'memberships.index'))).toBe(`${ed} in ${acme}: role ${auditor}; granted (none); denied memberships.index.\n`);
    expect(await membersStatus(acme, token)).toBe(403);
    succeeded(await gatehouse('member', 'permissions', acme, ed, '--clear', 'memberships.index'));
    expect(await membersStatus(acme, token)).toBe(200);

    await cli('role', 'permissions', acme, auditor, '--revoke', 'memberships.index');
    expect(await membersStatus(acme, token)).toBe(403);
    // A grant lifts a deny of the same permission.
    succeeded(await gatehouse('member', 'permissions', acme, ed, '--deny', 'memberships.index,roles.index'));
    const shown = `${ed} in ${acme}: role ${auditor}; granted memberships.index; denied roles.index.\n`;
    expect(succeeded(await gatehouse('member', 'permissions', acme, ed, '--grant', 'memberships.index'))).toBe(shown);
    expect(await membersStatus(acme, token)).toBe(200);
    expect(succeeded(await gatehouse('member', 'permissions', acme, ed))).toBe(shown);
    expect(
      await sql(
        "SELECT old_values, new_values, user_id FROM audit_logs WHERE model = 'memberships' AND action = 'updated' AND organization_id = (SELECT id FROM organizations WHERE slug = $1) ORDER BY id DESC LIMIT 1",
        [acme],
      ),
    ).toEqual([
      {
        old_values: { granted_permissions: [], denied_permissions: ['memberships.index', 'roles.index'] },
        new_values: { granted_permissions: ['memberships.index'], denied_permissions: ['roles.index'] },
        user_id: null,
      },
    ]);
  });

  it('a role made without --org is shared but configured nowhere until given permissions', async () => {
    const { acme } = await bootstrap();
    const [member, contentEditor] = [await newUser('piped'), unique('content-editor')];
    expect(succeeded(await gatehouse('role', 'create', contentEditor))).toMatch(new RegExp(`^Created role ${contentEditor} \\(Content editor \\w+, id \\d+\\)\\.\n$`));
    const add = ['member', 'add', '--org', acme, '--email', member, '--role', contentEditor];
    expect(await gatehouse(...add)).toEqual({
      code: 1,
      stdout: '',
      stderr: `Role ${contentEditor} is not configured in ${acme}: give it permissions there first (npx gatehouse role permissions ${acme} ${contentEditor} --grant <list>).\n`,
    });
    await cli('role', 'permissions', acme, contentEditor, '--grant', 'roles.index');
    succeeded(await gatehouse(...add));
    expect((await api.get(`/api/${acme}/roles`, { token: await login(member) })).status).toBe(200);
  });

  it('member add --role owner works on the core alone; --group picks a group of the config', async () => {
    const { empty } = await bootstrap();
    const member = await newUser('typed');
    succeeded(await gatehouse('member', 'add', '--org', empty, '--email', member, '--role', 'owner', '--group', 'tenant', '--config', TWO_GROUPS));
    expect((await api.get(`/api/${empty}/user-role`, { token: await login(member) })).body).toMatchObject({ role: 'owner' });
  });
});

/** Row counts of every table the commands write: a failed command must leave them as they were. */
async function tableCounts() {
  const tables = ['users', 'organizations', 'roles', 'user_roles', 'org_role_permissions', 'audit_logs'];
  return sql(`SELECT ${tables.map((table) => `(SELECT count(*) FROM ${table}) AS ${table}`).join(', ')}`);
}

describe('bad input: one line naming the problem, exit 1, nothing applied', () => {
  const cases = ({ ada, ed, acme, empty, auditor }: Awaited<ReturnType<typeof bootstrap>>): [string[], string][] => [
    [['user', 'create', '--email', ada.toUpperCase(), '--name', 'Again', '--password', PASSWORD], `The email ${ada.toUpperCase()} has already been taken.`],
    [['user', 'create', '--email', 'not-an-email', '--name', 'X', '--password', PASSWORD], 'The email field must be a valid email address.'],
    [['user', 'create', '--email', 'short@example.test', '--name', 'X', '--password', 'short'], 'The password field must be at least 8 characters.'],
    [['user', 'create', '--email', 'perm@example.test', '--name', 'X', '--password', PASSWORD, '--permissions', 'posts..x'], 'The permissions field holds an invalid permission: "posts..x" (it has an empty segment).'],
    [['org', 'create', '--name', 'Again', '--slug', acme, '--config', TWO_GROUPS], 'The slug has already been taken.'],
    [['org', 'create', '--name', 'Api', '--slug', 'api'], 'The slug is reserved.'],
    [['org', 'create', '--name', 'Admin', '--slug', 'admin', '--config', TWO_GROUPS], 'The slug is reserved.'],
    [['org', 'create', '--name', 'Bad', '--slug', 'Bad_Slug'], 'The slug may contain only lower-case letters, digits and single hyphens between them.'],
    [['org', 'create', '--name', 'New', '--slug', 'new-co', '--owner', 'nobody@example.test', '--config', TWO_GROUPS], 'No user has the email "nobody@example.test".'],
    [['member', 'add', '--org', 'nowhere', '--email', ed, '--role', 'owner'], 'No organization has the slug "nowhere".'],
    [['member', 'add', '--org', acme, '--email', 'nobody@example.test', '--role', 'owner'], 'No user has the email "nobody@example.test".'],
    [['member', 'add', '--org', acme, '--email', ed, '--role', 'nothing'], 'No role has the slug "nothing".'],
    [['member', 'add', '--org', acme, '--email', ed, '--role', 'owner'], `${ed} is already a member of ${acme} (route group tenant).`],
    [['member', 'add', '--org', acme, '--email', ed, '--role', 'owner', '--group', 'admin', '--config', TWO_GROUPS], 'Route group admin has no organizations (tenancy none): choose another with --group.'],
    [['member', 'add', '--org', acme, '--email', ed, '--role', 'owner', '--group', 'staff'], 'No route group is named "staff" (the config has tenant, admin).'],
    // The role is written before the organization is looked up: the failure takes it back.
    [['role', 'create', 'ghost', '--org', 'nowhere', '--permissions', 'roles.index'], 'No organization has the slug "nowhere".'],
    [['role', 'create', auditor], `The role ${auditor} already exists.`],
    [['role', 'create', 'Bad_Role'], 'The slug may contain only lower-case letters, digits and single hyphens between them.'],
    [['role', 'create', 'writer', '--org', acme, '--permissions', 'posts.*, no'], 'The permissions field holds an invalid permission: "no" (it names no action; expected {slug}.{action}, {slug}.{action}:{condition}, {slug}.* or *).'],
    [['role', 'permissions', acme, 'owner', '--revoke', '*'], 'The permissions of the owner role cannot be changed.'],
    [['role', 'permissions', acme, 'nothing', '--grant', 'roles.index'], 'No role has the slug "nothing".'],
    [['role', 'permissions', 'nowhere', auditor, '--grant', 'roles.index'], 'No organization has the slug "nowhere".'],
    [['role', 'permissions', acme, auditor, '--grant', 'roles.index', '--revoke', 'roles.index'], 'roles.index is in both --grant and --revoke.'],
    [['member', 'permissions', acme, ada, '--grant', 'roles.index posts.*!'], 'The grant field holds an invalid permission: "posts.*!" (it contains the character "!").'],
    [['member', 'permissions', empty, ed, '--deny', 'roles.index'], `${ed} is not a member of ${empty} (route group tenant).`],
    [['member', 'permissions', acme, 'nobody@example.test', '--deny', 'roles.index'], 'No user has the email "nobody@example.test".'],
    [['member', 'permissions', acme, ed, '--grant', 'roles.index', '--clear', 'roles.index'], 'roles.index is in both --grant and --clear.'],
    // This config registers no model, so no condition is declared: a conditioned permission would match nothing.
    [['role', 'create', 'writer', '--org', acme, '--permissions', 'posts.update:own', '--config', TWO_GROUPS], UNDECLARED_OWN],
    [['role', 'permissions', acme, auditor, '--grant', 'posts.update:own', '--config', TWO_GROUPS], UNDECLARED_OWN],
    [['member', 'permissions', acme, ed, '--deny', 'posts.update:own', '--config', TWO_GROUPS], UNDECLARED_OWN],
    [['user', 'create', '--email', 'cond@example.test', '--name', 'X', '--password', PASSWORD, '--permissions', 'posts.update:own', '--config', TWO_GROUPS], UNDECLARED_OWN],
  ];

  it('for each case, and the tables keep their rows', async () => {
    const CASES = cases(await bootstrap());
    const before = await tableCounts();
    // In this process, through the commander program: the refusals are the commands' own.
    for (const [args, message] of CASES) {
      expect(await gatehouseRun(db.ownerUrl, args), `gatehouse ${args.join(' ')}`).toEqual({ code: 1, stdout: '', stderr: `${message}\n` });
    }
    expect(await tableCounts()).toEqual(before);
  });

  // A process of its own: the password is read from its standard input, here empty.
  it('prints the refusal as one line and exits 1 from a process of its own too', async () => {
    const before = await tableCounts();
    expect(await gatehouse('user', 'create', '--email', newEmail('nopass'), '--name', 'X')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No password given: pass --password, type it on a terminal, or pipe it in on standard input.\n',
    });
    expect(await tableCounts()).toEqual(before);
  });

  it('answers a command line missing what a command needs with the usage and exit 2, no stack', async () => {
    const wrong: [string[], string][] = [
      [['user', 'create', '--name', 'X'], "error: required option '--email <email>' not specified"],
      [['org', 'create', '--name', 'X'], "error: required option '--slug <slug>' not specified"],
      [['member', 'add', '--org', 'acme', '--email', 'ed@example.test'], "error: required option '--role <role-slug>' not specified"],
      [['member', 'permissions', 'acme'], "error: required option '--email <email>' not specified"],
      [['role', 'create'], "error: missing required argument 'slug'"],
      [['role', 'permissions', 'acme'], "error: required option '--role <role-slug>' not specified"],
      [['role', 'create', 'x', '--permissions', 'roles.index'], 'error: --permissions goes with --org'],
      [['org', 'create', '--name', 'X', '--slug', 'x', '--group', 'tenant'], 'error: --group goes with --owner'],
    ];
    const before = await tableCounts();
    const runs = await Promise.all(wrong.map(([args]) => gatehouse(...args)));
    runs.forEach((run, index) => {
      const [args, message] = wrong[index]!;
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.split('\n')[0], args.join(' ')).toBe(message);
      expect(run.stderr).toContain(`Usage: gatehouse ${args.slice(0, 2).join(' ')}`);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    });
    expect(await tableCounts()).toEqual(before);
  });
});
