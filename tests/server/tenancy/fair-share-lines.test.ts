import { describe, expect, it } from 'vitest';
import { CallerPresence } from '../../../server/db/connection/caller-presence.js';
import { FairShares } from '../../../server/tenancy/fair-shares.js';

// Which waiting request a finished one lets in. The wait is a minute, longer than any test: a
// request still waiting at the end is one no finished request admitted.

/** Lets the requests a finished one admitted start (admissions resolve on later ticks). */
const turns = () => new Promise((resolve) => setImmediate(resolve));

interface Request {
  /** `user@organization #n`, n its place among the requests sent. */
  name: string;
  state: 'waiting' | 'running' | 'finished';
  finish(): void;
  caller: CallerPresence;
  answer: Promise<void>;
}

function requests(shares: FairShares) {
  const sent: Request[] = [];
  return {
    /** A request of `user` in `organization` that holds its place, once admitted, until `finish()`. */
    send(organization: string, user: string): Request {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const request: Request = {
        name: `${user}@${organization} #${sent.length}`,
        state: 'waiting',
        finish: () => {
          request.state = 'finished';
          release();
        },
        caller: new CallerPresence(),
        answer: Promise.resolve(),
      };
      request.answer = shares.hold({ organization, user, address: null }, request.caller, () => {
        request.state = 'running';
        return held;
      });
      sent.push(request);
      return request;
    },
    /** The names of the requests running, in order sent. */
    running: () => sent.filter((request) => request.state === 'running').map((request) => request.name),
    /** Every request still waiting gives up, and every running one finishes. */
    async end() {
      for (const request of sent) {
        if (request.state === 'waiting') request.caller.leave();
        else request.finish();
      }
      await Promise.allSettled(sent.map((request) => request.answer));
      expect(shares.stats().waiting).toBe(0);
    },
  };
}

describe('a request that finishes', () => {
  it("admits its holders' first waiter and leaves a thousand others' waiting", async () => {
    const shares = new FairShares({ organization: 1, user: 1, waitMs: 60_000 });
    const { send, running, end } = requests(shares);
    const others = Array.from({ length: 1000 }, (_, i) => [send(`org-${i}`, `user-${i}`), send(`org-${i}`, `user-${i}`)] as const);
    const first = send('acme', 'ann');
    // Ann's request elsewhere waits for her share only, and came before the next one at acme.
    const [elsewhere, next] = [send('globex', 'ann'), send('acme', 'ann')];
    expect(shares.stats().waiting).toBe(1002);

    first.finish();
    await turns();
    expect(running()).toEqual([...others.map(([held]) => held.name), elsewhere.name]);
    expect(shares.stats().waiting).toBe(1001);
    elsewhere.finish();
    await turns();
    expect(running()).toEqual([...others.map(([held]) => held.name), next.name]);
    // Another organization's finished request lets in its own.
    others[500]![0].finish();
    await turns();
    expect(running()).toContain(others[500]![1].name);
    expect(shares.stats().waiting).toBe(999);
    await end();
  });

  it('admits a waiter past its organization and its user only once both have room, in order of arrival', async () => {
    const shares = new FairShares({ organization: 2, user: 1, waitMs: 60_000 });
    const { send, running, end } = requests(shares);
    const [ann, bob] = [send('acme', 'ann'), send('acme', 'bob')];
    const [annFirst, carol, annSecond] = [send('acme', 'ann'), send('acme', 'carol'), send('acme', 'ann')];

    // The organization has room again, but ann has none: carol, behind her, goes in.
    bob.finish();
    await turns();
    expect(running()).toEqual([ann.name, carol.name]);
    carol.finish();
    await turns();
    expect(running()).toEqual([ann.name]);
    // Ann's request frees her share (the organization's had room): her first waiter goes in.
    ann.finish();
    await turns();
    expect(running()).toEqual([annFirst.name]);
    annFirst.finish();
    await turns();
    expect(running()).toEqual([annSecond.name]);
    // The organization's share is checked first: all three waited for it.
    expect(shares.stats()).toEqual({ waited: { organization: 3, user: 0, address: 0 }, refused: { organization: 0, user: 0, address: 0 }, waiting: 0 });
    await end();
  });
});
