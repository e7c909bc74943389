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

const resource = z.strictObject({ model: z.string().min(1), attributes: z.record(z.string(), z.unknown()).default({}) });

const policyTest = z.strictObject({
  name: z.string().optional(),
  principal: z.string().min(1),
  resource: z.string().min(1),
  route_group: routeGroup.optional(),
  organization: organization.optional(),
  actions: z.record(z.string(), outcome).optional(),
  read_fields: z.strictObject({ visible: names.optional(), hidden: names.optional() }).optional(),
  write_fields: z.strictObject({ operation: z.enum(['create', 'update']).default('create'), allowed: names.optional(), refused: names.optional() }).optional(),
  includes: z.record(z.string(), outcome).optional(),
});

/** A `*.policy.yaml` file: principals and resources by name, and the expectations about them. */
export const policyTestFileSchema = z.strictObject({
  roles: z.record(z.string(), names).optional(),
  principals: z.record(z.string(), principal),
  resources: z.record(z.string(), resource),
  tests: z.array(policyTest).min(1, 'must list at least one test'),
});

export type PolicyTestFile = z.infer<typeof policyTestFileSchema>;
export type PolicyTest = PolicyTestFile['tests'][number];
export type Principal = PolicyTestFile['principals'][string];
export type Outcome = z.infer<typeof outcome>;
