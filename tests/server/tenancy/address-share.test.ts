import { describe, expect, it } from 'vitest';
import { CallerPresence } from '../../../server/db/connection/caller-presence.js';
import { FairShareExceededError } from '../../../server/errors/fair-share-exceeded-error.js';
import { clientAddress } from '../../../server/tenancy/client-address.js';
import { FairShares } from '../../../server/tenancy/fair-shares.js';

describe('the client a guest counts as', () => {
  it('is its IPv4 address, however written, and its /64 for IPv6', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('2001:DB8::1')).toBe('2001:db8::/64');
    expect(clientAddress('2001:db8:0:0:ffff:1:2:3')).toBe('2001:db8::/64');
    expect(clientAddress('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(clientAddress('fe80::1%eth0')).toBe('fe80::/64');
    // Whatever else a trusted proxy forwards is a client of its own.
    expect(clientAddress('unknown')).toBe('unknown');
  });
});

describe("an address's share of the pool", () => {
  it("is a user's share, and a guest past it is refused naming its address", async () => {
    const shares = new FairShares({ organization: 1, user: 2, waitMs: 0 });
    const guest = { organization: null, user: null, address: '203.0.113.7' };
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = [shares.hold(guest, new CallerPresence(), () => held), shares.hold(guest, new CallerPresence(), () => held)];
    const refused = shares.hold(guest, new CallerPresence(), () => Promise.resolve());
    await expect(refused).rejects.toThrow(FairShareExceededError);
    await expect(refused).rejects.toMatchObject({
      share: 'address',
      message: "Your address already has 2 requests running, its share of the service's database connections. Please try again in 1 second.",
    });
    // Another client, and the organization's own share, are untouched.
    await expect(shares.hold({ ...guest, address: '203.0.113.8' }, new CallerPresence(), () => Promise.resolve('served'))).resolves.toBe('served');
    await expect(shares.hold({ organization: 'acme', user: '1', address: null }, new CallerPresence(), () => Promise.resolve('served'))).resolves.toBe('served');
    release();
    await Promise.all(running);
    expect(shares.stats()).toEqual({ waited: { organization: 0, user: 0, address: 1 }, refused: { organization: 0, user: 0, address: 1 }, waiting: 0 });
  });
});
