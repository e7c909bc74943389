import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../server/errors/config-error.js';
import { dataBases, defineRouteGroups, groupBases, hostMatcher, tenantBases } from '../../../server/models/route-group.js';

describe('route group configuration', () => {
  it('infers tenancy from where {organization} stands', () => {
    const [tenant, portal, admin] = defineRouteGroups([
      { name: 'tenant', prefix: '{organization}' },
      { name: 'portal', domain: '{organization}.example.test' },
      { name: 'admin', prefix: 'admin' },
    ]);
    expect([tenant?.tenancy, portal?.tenancy, admin?.tenancy]).toEqual(['path', 'subdomain', 'none']);
  });

  it('makes the first prefix group the default unless one is named', () => {
    const groups = defineRouteGroups([{ name: 'portal', domain: 'portal.example.test' }, { name: 'admin', prefix: 'admin' }, { name: 'tenant', prefix: '{organization}' }]);
    expect(groups.filter((group) => group.isDefault).map((group) => group.name)).toEqual(['admin']);
  });

  it.each([
    [[{ name: 'a', prefix: 'a', tenancy: 'path' as const }], /needs \{organization\} in its prefix/],
    [[{ name: 'a', prefix: 'a/{organization}', tenancy: 'none' as const }], /may appear only where/],
    [[{ name: 'a' }], /needs a prefix or a domain/],
    [[{ name: 'A b', prefix: 'x' }], /lower-case slug/],
    [[{ name: 'a', prefix: 'a' }, { name: 'a', prefix: 'b' }], /defined twice/],
    [[{ name: 'a', prefix: 'a', default: true }, { name: 'b', prefix: 'b', default: true }], /Only one/],
  ])('rejects an unworkable configuration %#', (configs, message) => {
    expect(() => defineRouteGroups(configs)).toThrow(ConfigError);
    expect(() => defineRouteGroups(configs)).toThrow(message);
  });

  it('derives the URL bases of each shape', () => {
    const [tenant, admin, portal] = defineRouteGroups([
      { name: 'tenant', prefix: '{organization}', default: true },
      { name: 'admin', prefix: 'admin' },
      { name: 'portal', domain: '{organization}.example.test' },
    ]);
    expect([groupBases(tenant!), dataBases(tenant!), tenantBases(tenant!)]).toEqual([['', '/tenant'], ['/:organization', '/tenant/:organization'], ['/:organization', '/tenant/:organization']]);
    expect([groupBases(admin!), dataBases(admin!), tenantBases(admin!)]).toEqual([['/admin'], ['/admin'], []]);
    expect([groupBases(portal!), dataBases(portal!), tenantBases(portal!)]).toEqual([[''], [''], ['/:organization']]);
  });
});

describe('hostMatcher', () => {
  it('captures the organization label of a tenant host, ignoring case', () => {
    const match = hostMatcher('{organization}.example.test');
    expect(match('Acme.Example.test')).toEqual({ organization: 'acme' });
    expect(match('example.test')).toBeNull();
    expect(match('a.b.example.test')).toBeNull();
    expect(match('acme.example.test.evil.test')).toBeNull();
  });

  it('matches a fixed host exactly', () => {
    const match = hostMatcher('admin.example.test');
    expect(match('admin.example.test')).toEqual({ organization: null });
    expect(match('adminxexample.test')).toBeNull();
  });
});
