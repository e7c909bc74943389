// A load generator in its own process, so the server's work after an answer cannot slow the
// client's reading of it: `node --import tsx time-requests.ts <json>` prints, per label, the
// milliseconds each request took. Requests go one at a time, in a shuffled order, with a pause
// between them so the previous one's background work is done.
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

interface Plan {
  baseUrl: string;
  path: string;
  /** Request bodies by label. */
  bodies: Record<string, unknown>;
  rounds: number;
  warmup: number;
  pauseMs: number;
}

const plan = JSON.parse(process.argv[2] ?? '{}') as Plan;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function post(body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(new URL(plan.path, plan.baseUrl), { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const labels = Object.keys(plan.bodies);
const order = labels.flatMap((label) => Array.from({ length: plan.rounds }, () => label));
for (let index = order.length - 1; index > 0; index -= 1) {
  const other = Math.floor(Math.random() * (index + 1));
  [order[index], order[other]] = [order[other]!, order[index]!];
}
for (let round = 0; round < plan.warmup; round += 1) for (const label of labels) await post(plan.bodies[label]);
const times: Record<string, number[]> = Object.fromEntries(labels.map((label) => [label, []]));
for (const label of order) {
  times[label]!.push(await post(plan.bodies[label]));
  await sleep(plan.pauseMs);
}
agent.destroy();
process.stdout.write(JSON.stringify(times));
