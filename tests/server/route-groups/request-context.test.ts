import { describe, expect, it } from 'vitest';
import { signedIn, tenantMember } from '../../../server/route-groups/request-chains.js';
import { listRoles } from '../../../server/roles/list-roles.js';
import type { Services } from '../../../server/services.js';

// Building a chain reads nothing of the services; only its requests do.
const services = {} as Services;

describe('request chains', () => {
  it('run their stages before the handlers they were given', () => {
    expect(tenantMember(services).before(listRoles())).toHaveLength(3);
  });

  it('take only handlers that need no more than the chain establishes (checked by tsc)', () => {
    // @ts-expect-error listing roles reads the organization and the transaction, which only a member's chain opens
    // The caller's share, authentication, the group membership, then the handler.
    expect(signedIn(services).before(listRoles())).toHaveLength(4);
  });
});
