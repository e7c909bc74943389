import { describe, expect, it } from 'vitest';
import { ResourcePolicy } from '@gatehouse/engine';
import { demoData } from '../../../policies/demo-data.js';
import demo from '../../../policies/gatehouse.config.js';
import { demoModels } from '../../../policies/demo-models.js';
import { PostPolicy } from '../../../policies/post-policy.js';
import { envConfig } from '../../../server/cli/env-config.js';
import { readEnvironment } from '../../../server/cli/environment.js';
import { ConfigError } from '../../../server/errors/config-error.js';
import { resolveConfig, type ServerConfig } from '../../../server/config/server-config.js';
import { defineModel, type ModelOptions } from '../../../server/models/define-model.js';
import type { RouteGroupConfig } from '../../../server/models/route-group.js';

const base = (routeGroups: RouteGroupConfig[], data: ServerConfig['data'] = demoData): ServerConfig => ({
  database: { connectionString: 'postgres://localhost/unused' },
  tokens: { secretKey: 'k4.secret.unused' },
  routeGroups,
  data,
});

describe('registering models', () => {
  it('serves the demo models under both demo groups of npm start', () => {
    const config = resolveConfig(envConfig(readEnvironment({}), 'postgres://localhost/unused', 'k4.secret.unused', demo));
    const served = config.routeGroups.map((group) => [group.name, group.models.filter((slug) => config.models?.has(slug))]);
    expect(served).toEqual([
      ['tenant', ['posts', 'comments', 'users', 'organizations', 'roles']],
      ['admin', ['organizations', 'users']],
    ]);
    // Resolving is plain data: the app composes the data routers from the registry.
    expect(config.dataRoutes).toBeUndefined();
    expect(config.models?.policy(config.models.get('posts')).prototype).toBeInstanceOf(PostPolicy);
  });

  it.each([
    ['a group lists a model nobody registered', base([{ name: 'tenant', prefix: '{organization}', models: ['invoices'] }]), 'Route group tenant lists model invoices, which is not registered.'],
    ['a group without tenancy lists a tenant-owned model', base([{ name: 'admin', prefix: 'admin', models: ['posts'] }]), 'Route group admin has no tenancy, so it cannot serve the tenant-owned model posts.'],
    ['both data and dataRoutes', { ...base([{ name: 'tenant', prefix: '{organization}' }]), dataRoutes: () => undefined }, 'Configure either data or dataRoutes, not both.'],
    [
      'a policy whose name matches no model',
      base([{ name: 'tenant', prefix: '{organization}' }], { models: demoModels, policies: { PostsPolicy: class extends ResourcePolicy {} } }),
      'Policy PostsPolicy serves no registered model (by convention PostPolicy serves posts).',
    ],
    [
      'a relation to a model nobody registered',
      base([{ name: 'tenant', prefix: '{organization}' }], {
        models: [defineModel({ slug: 'notes', tenantOwned: true, attributes: { user_id: 'integer' }, fillable: [], relations: { user: { kind: 'belongsTo', model: 'users', foreignKey: 'user_id' } } })],
      }),
      'Model notes: relation "user" names unknown model users',
    ],
    [
      'a starting role holds a condition on a wildcard',
      { ...base([{ name: 'tenant', prefix: '{organization}' }]), organizationRoles: { owner: ['*'], author: ['posts.index', 'posts.*:own'] } },
      'The organizationRoles.author field holds an invalid permission: "posts.*:own" (a condition is only allowed on {slug}.{action}, not on a wildcard).',
    ],
    [
      "a starting role names a condition the model's policy does not declare",
      { ...base([{ name: 'tenant', prefix: '{organization}' }]), organizationRoles: { owner: ['*'], author: ['comments.update:own'] } },
      'organizationRoles.author: The permission comments.update:own names the condition own, which the comments policy does not declare (it declares no record conditions).',
    ],
  ])('refuses at start-up when %s', (_case, config, message) => {
    expect(() => resolveConfig(config)).toThrow(ConfigError);
    expect(() => resolveConfig(config)).toThrow(message);
  });
});

describe('model definitions that would clash with the wire', () => {
  const clashes: [Pick<ModelOptions, 'slug'> & Partial<ModelOptions>, string][] = [
    [{ slug: 'all' }, 'Model all: "all" is CASL\'s name for every resource, so no permission can name it'],
    [{ slug: 'posts', computedAttributes: { title: { type: 'string' as const, uses: [], compute: () => '' } } }, 'Model posts: computed attribute "title" is also an attribute'],
    [{ slug: 'posts', computedAttributes: { excerpt: { type: 'string' as const, uses: ['secret'], compute: () => '' } } }, 'Model posts: computed attribute "excerpt" use "secret" is not a registered attribute'],
    [{ slug: 'posts', scopes: { byAuthor: { argument: 'string[]' as 'string', apply: (query) => query } } }, 'Model posts: scope "byAuthor" has unknown argument type string[]'],
  ];

  it.each(clashes)('refuses %j', (options, message) => {
    expect(() => defineModel({ tenantOwned: true, attributes: { title: 'string' }, fillable: [], ...options })).toThrow(message);
  });
});
