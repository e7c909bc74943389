import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort } from '../../../../server/db/cluster/embedded-cluster.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../support/test-server.js';

const UNAVAILABLE = { message: 'Service unavailable: the database cannot be reached.' };
const ownerLogin = { body: { email: 'owner@acme.test', password: DEMO_PASSWORD } };

describe('with no database listening', () => {
  let online: TestServer;
  let offline: TestServer;

  beforeAll(async () => {
    online = await startTestServer();
    offline = await startTestServer({ databasePort: await freePort() });
  });

  afterAll(async () => {
    await offline.close();
    await online.close();
  });

  it('answers 503 instead of crashing, for readiness, login and authenticated requests alike', async () => {
    const token = await online.login('owner@acme.test');
    for (const response of [
      await offline.api.get('/api/ready'),
      await offline.api.post('/api/auth/login', ownerLogin),
      await offline.api.get('/api/acme/roles', { token }),
    ]) {
      expect(response.status).toBe(503);
      expect(response.body).toEqual(UNAVAILABLE);
    }
  });

  it('still answers what needs no database, liveness included', async () => {
    expect(await offline.api.get('/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect((await offline.api.post('/api/auth/login', { body: {} })).status).toBe(422);
    expect((await offline.api.get('/api/acme/roles')).status).toBe(401);
    expect((await offline.api.get('/api/.well-known/paseto-public-key')).status).toBe(200);
  });
});

describe('when the database goes away and comes back', () => {
  let proxy: TcpProxy;
  let server: TestServer;

  beforeAll(async () => {
    proxy = await startTcpProxy(Number(new URL(inject('clusterUrl')).port));
    server = await startTestServer({ databasePort: proxy.port });
  });

  afterAll(async () => {
    await server.close();
    await proxy.stop();
  });

  it('answers 503 while it is gone and recovers without a restart', async () => {
    expect((await server.api.get('/api/ready')).status).toBe(200);
    await proxy.stop();
    expect((await server.api.get('/api/ready')).status).toBe(503);
    expect((await server.api.get('/api/health')).status).toBe(200);
    expect((await server.api.post('/api/auth/login', ownerLogin)).status).toBe(503);
    await proxy.start();
    expect((await server.api.get('/api/ready')).status).toBe(200);
    expect((await server.api.post('/api/auth/login', ownerLogin)).status).toBe(200);
  });
});
