import { z } from 'zod';

const names = z.array(z.string().min(1));
const outcome = z.enum(['allow', 'deny'], { error: 'must be allow or deny' });
const organization = z.strictObject({ id: z.number().int().positive(), slug: z.string().min(1) });
const routeGroup = z.string().min(1);

/** A caller: a role of an organization with the member's deltas, or a user's own permission list (non-tenant route groups). */
const principal = z.union(
  [
    z.strictObject({
      role: z.string().min(1),
      granted: names.optional(),
      denied: names.optional(),
      id: z.number().int().optional(),
      organization: organization.optional(),
      route_group: routeGroup.optional(),
    }),
    z.strictObject({
      permissions: names,
      granted: names.optional(),
      denied: names.optional(),
      id: z.number().int().optional(),
      route_group: routeGroup.optional(),
    }),
  ],
  { error: 'must have either role (with optional granted, denied) or permissions' },
);

/** A record of a model: its attributes as written here, or (`record`) one of the file's fixtures by id. */
const resource = z.strictObject({ model: z.string().min(1), attributes: z.record(z.string(), z.unknown()).optional(), record: z.number().int().optional() });

/** A fixture: one row of a model, its id and attribute values (the others are NULL). */
const fixture = z.looseObject({ id: z.number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer') }).int('must be an integer') });

/** Which fixtures of a model a principal may `action`, computed in memory and in SQL. */
const list = z.strictObject({
  as: z.string().min(1),
  model: z.string().min(1).optional(),
  action: z.string().min(1),
  expect: z.array(z.number().int()),
});

/** The keys of a test about one resource, which a list test has none of. */
const RECORD_KEYS = ['principal', 'resource', 'route_group', 'organization', 'actions', 'read_fields', 'write_fields', 'includes'] as const;

const policyTest = z.strictObject({
  name: z.string().optional(),
  principal: z.string().min(1).optional(),
  resource: z.string().min(1).optional(),
  route_group: routeGroup.optional(),
  organization: organization.optional(),
  actions: z.record(z.string(), outcome).optional(),
  read_fields: z.strictObject({ visible: names.optional(), hidden: names.optional() }).optional(),
  write_fields: z.strictObject({ operation: z.enum(['create', 'update']).default('create'), allowed: names.optional(), refused: names.optional() }).optional(),
  includes: z.record(z.string(), outcome).optional(),
  list: list.optional(),
});

/** A test is either about one resource (principal, resource and their checks) or a list, never both. */
const oneKind = policyTest.superRefine((test, context) => {
  if (test.list !== undefined) {
    for (const key of RECORD_KEYS) if (test[key] !== undefined) context.addIssue({ code: 'custom', path: [key], message: 'is not a key of a list test (the principal is list.as)' });
    return;
  }
  for (const key of ['principal', 'resource'] as const) if (test[key] === undefined) context.addIssue({ code: 'custom', path: [key], message: 'is required' });
});

/** A `*.policy.yaml` file: principals and resources by name, and the expectations about them. */
export const policyTestFileSchema = z.strictObject({
  roles: z.record(z.string(), names).optional(),
  principals: z.record(z.string(), principal).default({}),
  resources: z.record(z.string(), resource).default({}),
  /** Fixtures by model slug, for list tests: inserted into a scratch copy of each table, never kept. */
  records: z.record(z.string(), z.array(fixture)).optional(),
  tests: z.array(oneKind).min(1, 'must list at least one test'),
});

export type PolicyTestFile = z.infer<typeof policyTestFileSchema>;
export type PolicyTest = PolicyTestFile['tests'][number];
export type ListTest = NonNullable<PolicyTest['list']>;
/** A test about one resource: the schema requires both names when there is no list. */
export type RecordTest = PolicyTest & { principal: string; resource: string };
export type Fixture = z.infer<typeof fixture>;
export type Principal = PolicyTestFile['principals'][string];
export type Outcome = z.infer<typeof outcome>;
