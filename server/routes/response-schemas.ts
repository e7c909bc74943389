import { AUTHORIZE_GATES, COMPARISONS, DECISION_GATES, EXPLAIN_GATES, MEMBERSHIPS, NULL_CHECKS, QUANTIFIERS, REFUSAL_GATES } from '@gatehouse/engine';
import type { JsonSchema } from './route-definition.js';
import { DECISION_SOURCES } from '../decisions/decision-event.js';

/** Where the OpenAPI document's named schemas live. */
export const SCHEMA_REFERENCE = '#/components/schemas/';
/** `#/components/schemas/{name}` of the OpenAPI document. */
export const ref = (name: keyof typeof COMPONENT_SCHEMAS | string): JsonSchema => ({ $ref: `${SCHEMA_REFERENCE}${name}` });
export const listOf = (items: JsonSchema): JsonSchema => ({ type: 'object', properties: { data: { type: 'array', items } }, required: ['data'] });

const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] });
const timestamp = { type: 'string', format: 'date-time' };
const DENIED = { type: 'boolean', enum: [true], description: 'Present when a per-user deny, not a missing grant, took `permission` away.' };
const CONDITIONS = { type: 'array', items: { type: 'string' }, description: 'The conditioned permissions (`posts.update:own`) a record the caller may see fell outside of.' };

const AUTHORIZE_REASON = {
  type: 'object',
  properties: {
    gate: { type: 'string', enum: [...AUTHORIZE_GATES] },
    permission: { type: 'string' },
    policy: { type: 'string', description: 'The override that refused though the permission is held: `PostPolicy.create`.' },
    fields: { type: 'array', items: { type: 'string' } },
    include: { type: 'string' },
    denied: DENIED,
    conditions: CONDITIONS,
  },
  required: ['gate'],
};

const SCALAR = { type: ['string', 'number', 'boolean'] };

/** The JSON tree of a record condition (engine/conditions/condition-tree.ts), as plans and explain answer it. */
const CONDITION = {
  type: 'object',
  description: 'A node of a record condition, with the facts of the caller filled in: `true`/`false`, `and`/`or` of `conditions`, `not` of `condition`, a test of `attribute` against `value` or `values`, a null check, or `some`/`none`/`every` of the records of `relation` matching `condition`. See the Record rules guide.',
  properties: {
    op: { enum: ['true', 'false', 'and', 'or', 'not', ...COMPARISONS, ...MEMBERSHIPS, ...NULL_CHECKS, ...QUANTIFIERS] },
    conditions: { type: 'array', items: ref('RecordCondition') },
    condition: ref('RecordCondition'),
    attribute: { type: 'string' },
    value: SCALAR,
    values: { type: 'array', items: SCALAR },
    relation: { type: 'string' },
  },
  required: ['op'],
};

/** The bodies the service's own routes answer with; model records are added per model. */
export const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  Error: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  Forbidden: {
    type: 'object',
    description: 'A refusal and, unless `explain.responses` is off, its reason: what the caller lacks, never anything about other records or members.',
    properties: {
      message: { type: 'string' },
      reason: {
        type: 'object',
        properties: {
          gate: { enum: [...REFUSAL_GATES] },
          permission: { type: 'string', description: 'The permission the caller lacks, e.g. `posts.destroy`.' },
          policy: { type: 'string', description: 'The policy method that refused, e.g. `PostPolicy.create`.' },
          fields: { type: 'array', items: { type: 'string' } },
          include: { type: 'string', description: 'The include path up to the refused hop.' },
          denied: DENIED,
          conditions: CONDITIONS,
        },
        required: ['gate'],
      },
    },
    required: ['message'],
  },
  ValidationError: {
    type: 'object',
    properties: { message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
    required: ['message', 'errors'],
  },
  Message: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  DecisionLogEntry: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      request_id: { type: 'string' },
      user_id: { type: ['integer', 'null'] },
      route_group: { type: ['string', 'null'] },
      method: { type: 'string' },
      route: { type: 'string', description: 'The path template, never the path.' },
      status: { type: 'integer' },
      gate: { enum: [...DECISION_GATES] },
      permission: { type: ['string', 'null'] },
      policy: { type: ['string', 'null'] },
      source: { enum: [...DECISION_SOURCES], description: 'A request this service refused, or a check another service asked through `POST {t}/authorize`.' },
      service: { type: ['string', 'null'], description: 'The service that asked, for an `authorize` refusal that named itself (`X-Gatehouse-Service`).' },
      model: { type: ['string', 'null'], description: 'The model or registered resource of a data request or check.' },
      action: { type: ['string', 'null'] },
      record_id: { type: ['string', 'null'], description: 'The record of a record action.' },
      created_at: timestamp,
    },
    required: ['id', 'request_id', 'user_id', 'route_group', 'method', 'route', 'status', 'gate', 'permission', 'policy', 'source', 'service', 'model', 'action', 'record_id', 'created_at'],
  },
  Decision: {
    type: 'object',
    properties: {
      allowed: { type: 'boolean' },
      gate: { oneOf: [{ enum: [...EXPLAIN_GATES] }, { type: 'null' }], description: 'The first gate that refused.' },
      status: { type: 'integer', description: 'What the request itself answers with.' },
      user: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } }, required: ['id', 'name', 'email', 'role'] },
      request: { type: 'object', properties: { method: { type: 'string' }, route: { type: 'string' }, model: { type: 'string' }, action: { type: 'string' } }, required: ['method', 'route', 'model', 'action'] },
      checks: {
        type: 'array',
        description: 'The gates in the documented order, up to the first that refused; `policy` and `permission` explain the policy gate, `fields` and `include` theirs, `record` the record gate.',
        items: { type: 'object', properties: { gate: { enum: [...EXPLAIN_GATES] }, passed: { type: 'boolean' }, detail: { type: 'string' } }, required: ['gate', 'passed', 'detail'] },
      },
      reason: { ...AUTHORIZE_REASON, description: "For a refused check on another service's resource: the reason `authorize` answers." },
    },
    required: ['allowed', 'gate', 'status', 'user', 'request', 'checks'],
  },
  User: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string', format: 'email' } }, required: ['id', 'name', 'email'] },
  Organization: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, slug: { type: 'string' } }, required: ['id', 'name', 'slug'] },
  OrganizationWithIncludes: {
    allOf: [
      ref('Organization'),
      {
        type: 'object',
        properties: {
          users: {
            type: 'array',
            description: 'With `include=users`: members of the request’s group.',
            items: { allOf: [ref('User'), { type: 'object', properties: { pivot: { type: 'object', properties: { role_id: { type: 'integer' } } } } }] },
          },
          roles: { type: 'array', description: 'With `include=roles`.', items: ref('Role') },
        },
      },
    ],
  },
  Session: {
    type: 'object',
    description: 'A started session: the bearer token and who it belongs to.',
    properties: {
      token: { type: 'string', description: 'PASETO v4.public bearer token.' },
      user: ref('User'),
      organization: nullable(ref('Organization')),
      organization_slug: { type: ['string', 'null'] },
      route_group: { type: ['string', 'null'], description: 'The group in the auth URL; null on the plain `/auth/*` path.' },
    },
    required: ['token', 'user', 'organization', 'organization_slug', 'route_group'],
  },
  Role: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, slug: { type: 'string' } }, required: ['id', 'name', 'slug'] },
  Member: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      email: { type: 'string', format: 'email' },
      role: ref('Role'),
      granted_permissions: { type: 'array', items: { type: 'string' } },
      denied_permissions: { type: 'array', items: { type: 'string' } },
    },
    required: ['id', 'name', 'email', 'role', 'granted_permissions', 'denied_permissions'],
  },
  RolePermissions: {
    type: 'object',
    properties: { role: ref('Role'), permissions: { type: 'array', items: { type: 'string' } } },
    required: ['role', 'permissions'],
  },
  OrganizationAuditEntry: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      model: { type: 'string', description: 'A model slug, or `memberships` / `role_permissions`.' },
      record_id: { type: 'string' },
      action: { type: 'string' },
      old_values: { type: ['object', 'null'] },
      new_values: { type: ['object', 'null'] },
      user_id: { type: ['integer', 'null'] },
      user: nullable({ type: 'object', properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } } }),
      created_at: timestamp,
    },
    required: ['id', 'model', 'record_id', 'action', 'created_at'],
  },
  PermissionCatalogEntry: {
    type: 'object',
    properties: {
      resource: { type: 'string' },
      kind: { enum: ['model', 'administration', 'service'] },
      actions: { type: 'array', items: { type: 'string' } },
      service: { type: 'string', description: 'The service a `service` resource belongs to.' },
    },
    required: ['resource', 'kind', 'actions'],
  },
  ServiceResource: {
    type: 'object',
    properties: {
      resource: { type: 'string' },
      service: { type: 'string' },
      actions: { type: 'array', items: { type: 'string' } },
      origin: { enum: ['config', 'database'], description: '`config`: declared in the configuration, changed only there.' },
    },
    required: ['resource', 'service', 'actions', 'origin'],
  },
  UserRole: {
    type: 'object',
    properties: {
      role: { type: ['string', 'null'] },
      permissions: { type: 'array', items: { type: 'string' }, description: 'Effective permissions; a leading `!` marks a denial.' },
      rules: { type: 'array', items: { type: 'array' }, description: 'The caller’s CASL rules, packed with `packRules`.' },
      abilities: {
        type: 'object',
        additionalProperties: { type: 'object', additionalProperties: { type: 'boolean' } },
        description: 'Per served model, the model-level actions (`index`, `store`, `trashed`) as the policies decide them.',
      },
      organization: nullable({ type: 'object', properties: { id: { type: 'integer' }, slug: { type: 'string' } }, required: ['id', 'slug'] }),
    },
    required: ['role', 'permissions', 'rules', 'abilities', 'organization'],
  },
  AuthorizeResults: {
    type: 'object',
    properties: {
      results: {
        type: 'array',
        description: 'One answer per check, in order.',
        items: {
          type: 'object',
          properties: {
            allowed: { type: 'boolean' },
            message: { type: 'string', description: 'What the same request would answer, when refused.' },
            hidden_fields: { type: 'array', items: { type: 'string' }, description: 'Allowed, but these of the fields asked to read are left out of the answer: the caller may not read them.' },
            reason: AUTHORIZE_REASON,
          },
          required: ['allowed'],
        },
      },
      plans: {
        type: 'array',
        description: 'Present when plans were asked: one per plan, in order. Which records of `model` the caller may `action`: every one, none, or those `condition` matches.',
        items: {
          type: 'object',
          properties: {
            model: { type: 'string' },
            action: { type: 'string' },
            kind: { enum: ['always', 'never', 'conditional'] },
            condition: ref('RecordCondition'),
            scoped: {
              const: true,
              description: 'Present when the model has a `recordScope`, code of the server that no plan can hold: only the records the scope lets through are allowed, so a service filtering by the plan must apply it too.',
            },
            message: { type: 'string', description: 'For `never`: the refusal of a refused listing, an unknown model or action.' },
            reason: AUTHORIZE_REASON,
          },
          required: ['model', 'action', 'kind'],
        },
      },
    },
    required: ['results'],
  },
  RecordCondition: CONDITION,
  OrganizationExistence: {
    type: 'object',
    properties: { exists: { type: 'boolean', description: 'True when the slug is taken (or reserved).' }, organization: ref('Organization') },
    required: ['exists'],
  },
  Invitation: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      organization_id: { type: 'integer' },
      email: { type: 'string', format: 'email' },
      role_id: { type: 'integer' },
      route_group: { type: ['string', 'null'] },
      status: { enum: ['pending', 'expired', 'accepted', 'cancelled'] },
      invited_by: { type: ['integer', 'null'] },
      expires_at: timestamp,
      accepted_at: { type: ['string', 'null'], format: 'date-time' },
      created_at: timestamp,
      updated_at: timestamp,
    },
    required: ['id', 'email', 'role_id', 'status'],
  },
  AcceptedInvitation: {
    type: 'object',
    description: 'For a signed-in invitee; a guest gets `{requires_registration: true}` instead. No token is issued.',
    properties: { message: { type: 'string' }, invitation: ref('Invitation'), organization: ref('Organization'), requires_registration: { type: 'boolean' } },
  },
  Health: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] },
  Ready: { type: 'object', properties: { status: { const: 'ready' } }, required: ['status'] },
  PublicKey: {
    type: 'object',
    properties: {
      key: { type: 'string', description: 'PASERK `k4.public` of the current signing key.' },
      id: { type: 'string', description: 'Its id, which tokens name in their footer (`{"kid": id}`).' },
      version: { const: 'v4' },
      purpose: { const: 'public' },
      keys: {
        type: 'array',
        description: 'Every active verification key, the current one first: after a rotation the previous keys still verify the tokens they signed.',
        items: {
          type: 'object',
          properties: { id: { type: 'string' }, key: { type: 'string', description: 'PASERK `k4.public`.' }, current: { type: 'boolean' } },
          required: ['id', 'key', 'current'],
        },
      },
    },
    required: ['key', 'id', 'version', 'purpose', 'keys'],
  },
};
