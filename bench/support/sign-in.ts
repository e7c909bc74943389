import { DEMO_PASSWORD } from '../../policies/seed.js';

/** The demo owner's `Authorization` header, from a login on the service at `url`. */
export async function ownerAuthorization(url: string): Promise<string> {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@acme.test', password: DEMO_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  return `Bearer ${token}`;
}
