// A service that closes its Gatehouse client while one call waits for a hung Gatehouse and two
// more wait in line; it prints how each call ended, once stdin ends, and must then exit by itself.
import { createGatehouse } from '@gatehouse/node';

const gatehouse = createGatehouse({ baseURL: process.env.GATEHOUSE_URL!, maxConnections: 1, timeout: { connectMs: 600_000, responseMs: 600_000 } });
const calls = Array.from({ length: 3 }, () => gatehouse.authorize(process.env.TOKEN!, 'acme', [{ model: 'posts', action: 'index' }]).catch((error: Error) => error.message));
process.stdin.resume().on('end', () => {
  gatehouse.close();
  void Promise.all(calls).then((outcomes) => console.log(JSON.stringify(outcomes)));
});
