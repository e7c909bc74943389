import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataServer } from '../support/data-server.js';
import { createAccounts, createTenant, type Account, type Tenant } from '../support/tenant-fixture.js';
import type { TestServer } from '../support/test-server.js';

// Issue 28, finding 9: a record's audit trail shows what the caller may see of the record now,
// and never that a field hidden from them changed.
let server: TestServer;
let owner: Account;
let viewer: Account;
let auditor: Account;
let tenant: Tenant;

beforeAll(async () => {
  server = await startDataServer();
  [owner, viewer, auditor] = await createAccounts(server, 'owner', 'viewer', 'auditor');
  tenant = await createTenant(server, [
    { account: owner, role: 'owner' },
    { account: viewer, role: 'viewer' },
    { account: auditor, role: 'viewer', granted: ['audit.index'] },
  ]);
});

afterAll(() => server.close());

async function newPost(): Promise<number> {
  const created = await server.api.post(tenant.path('/posts'), { token: owner.token, body: { title: 'Plans', body: 'Public part.', internal_notes: 'Secret part.' } });
  expect(created.status).toBe(201);
  const changed = await server.api.request('PATCH', tenant.path(`/posts/${created.body.id}`), { token: owner.token, body: { internal_notes: 'Still secret.' } });
  expect(changed.status).toBe(200);
  return created.body.id as number;
}

const trail = (id: number, who: Account) => server.api.get(tenant.path(`/posts/${id}/audit`), { token: who.token });

describe('a record’s audit trail', () => {
  it('leaves out rows whose only changes are hidden from the caller, and the hidden values of the others', async () => {
    const id = await newPost();
    const seen = await trail(id, viewer);
    expect(seen.status).toBe(200);
    expect(seen.body.data).toHaveLength(1);
    expect(seen.body.data[0]).toMatchObject({ action: 'created', new_values: { title: 'Plans', body: 'Public part.' } });
    expect(JSON.stringify(seen.body)).not.toContain('internal_notes');
    expect(seen.headers['x-total']).toBe('1');
    // Whoever may read the notes sees their change.
    expect((await trail(id, owner)).body.data.map((row: { action: string }) => row.action)).toEqual(['created', 'updated']);
  });

  it('of a trashed record needs the right to see trashed records', async () => {
    const id = await newPost();
    expect((await server.api.delete(tenant.path(`/posts/${id}`), { token: owner.token })).status).toBe(204);
    expect(await trail(id, viewer)).toMatchObject({ status: 404 });
    expect((await trail(id, owner)).body.data.map((row: { action: string }) => row.action)).toEqual(['created', 'updated', 'deleted']);
  });
});

describe('the organization’s audit trail', () => {
  it('hides the same changes from an auditor who may not read the field', async () => {
    const id = await newPost();
    const seen = await server.api.get(tenant.path('/audit?filter[model]=posts'), { token: auditor.token });
    expect(seen.status).toBe(200);
    const rows = seen.body.data.filter((row: { record_id: string }) => row.record_id === String(id));
    expect(rows.map((row: { action: string }) => row.action)).toEqual(['created']);
    expect(JSON.stringify(seen.body)).not.toContain('internal_notes');
  });

  it('leaves out the changes of a trashed record from an auditor who may not see trashed records', async () => {
    const id = await newPost();
    expect((await server.api.delete(tenant.path(`/posts/${id}`), { token: owner.token })).status).toBe(204);
    expect(await trail(id, auditor)).toMatchObject({ status: 404 });
    const actions = async (who: Account) => {
      const seen = await server.api.get(tenant.path('/audit?filter[model]=posts&per_page=100'), { token: who.token });
      return seen.body.data.filter((row: { record_id: string }) => row.record_id === String(id)).map((row: { action: string }) => row.action);
    };
    expect(await actions(auditor)).toEqual([]);
    expect(await actions(owner)).toEqual(['deleted', 'updated', 'created']);
  });
});
